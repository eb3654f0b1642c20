import Glibc
import Foundation
import TestSupport

/// Runs short-lived helper commands (tmux clients) with `posix_spawn` and `waitpid`, output
/// to a file: no pipes a forked daemon could hold open, no run loop.
///
/// The child gets standard input, output and error and no other descriptor of the test
/// process: `new-session` forks the tmux server, which would otherwise keep, for the whole
/// session, every socket and pipe the concurrently running tests had open — an in-process
/// receiver's listening socket among them, whose port then stayed taken after the receiver
/// stopped.
enum Spawn {
    /// Runs a command found on `PATH` and returns its exit status and standard output.
    ///
    /// - Parameters:
    ///   - arguments: The command and its arguments.
    ///   - scratch: A directory for the output file.
    /// - Returns: The exit status and output.
    static func run(_ arguments: [String], scratch: URL) throws -> (status: Int32, output: String) {
        let outputPath = scratch.appendingPathComponent("spawn-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let closing = SpawnActions.addCloseFrom(&actions, 3)
        guard closing == 0 else { throw TestFailure("cannot add a close-from action: \(String(cString: strerror(closing)))") }
        // The test process blocks most signals on its threads, and a spawned child inherits the
        // mask: a tmux server with SIGCHLD and SIGTERM blocked never exits. Start children with
        // an empty mask and default dispositions.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw TestFailure("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = (status & 0x7F) == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
    }
}
