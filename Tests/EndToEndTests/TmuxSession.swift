import Foundation
import TestSupport

/// A detached tmux server on a socket of its own, running one shell in a pane of a given size.
///
/// The server, its shell and so the programs the tests type run as an ordinary user when the
/// tests run as root (``Unprivileged``): the scratch folder and every test folder a typed line
/// names are handed to that user. Every call is bounded in time; ``kill()`` always stops the
/// server.
final class TmuxSession {
    /// The socket name (`tmux -L`).
    let socket = "ferry-e2e-\(UUID().uuidString)"
    /// A scratch directory for the session (state home, marker files).
    let scratch: URL

    /// Starts a server with a shell in an 100×30 (or other) pane.
    ///
    /// - Parameters:
    ///   - width: Columns.
    ///   - height: Rows.
    init(width: Int = 100, height: Int = 30) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        Unprivileged.handOver(foldersIn: [scratch.path])
        try tmux(["-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-c", scratch.path, "-x", String(width), "-y", String(height),
                  "env", "PS1=$ ", "HOME=\(scratch.path)", "XDG_STATE_HOME=\(scratch.path)/state", "TERM=screen",
                  "sh"])
    }

    /// Types a line into the pane's shell.
    ///
    /// - Parameter line: The command line.
    func run(_ line: String) throws {
        Unprivileged.handOver(foldersIn: [line])
        try tmux(["send-keys", "-t", "e2e", "-l", line])
        try tmux(["send-keys", "-t", "e2e", "Enter"])
    }

    /// Sends keys in tmux's `send-keys` syntax (`Space`, `Enter`, `C-c`) or literally.
    ///
    /// - Parameters:
    ///   - keys: The keys.
    ///   - literally: Whether to send them as text.
    func send(_ keys: String..., literally: Bool = false) throws {
        try tmux(["send-keys", "-t", "e2e"] + (literally ? ["-l"] : []) + keys)
    }

    /// The pane's text.
    func capture() throws -> String {
        try tmux(["capture-pane", "-p", "-t", "e2e"])
    }

    /// Sets a global option.
    ///
    /// - Parameters:
    ///   - name: The option, e.g. `set-clipboard`.
    ///   - value: Its value.
    func setOption(_ name: String, _ value: String) throws {
        try tmux(["set-option", "-g", name, value])
    }

    /// The newest paste buffer: what a program put there with OSC 52 while `set-clipboard` is `on`.
    func pasteBuffer() throws -> String {
        try tmux(["show-buffer"])
    }

    /// Whether the pane shows the alternate screen.
    func isAlternateScreen() throws -> Bool {
        try tmux(["display-message", "-p", "-t", "e2e", "#{alternate_on}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// The process IDs of the children of the pane's shell (the program it runs).
    func foregroundChildren() throws -> [Int32] {
        let shell = try tmux(["display-message", "-p", "-t", "e2e", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }
    }

    /// Resizes the window.
    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "e2e", "-x", String(width), "-y", String(height)])
    }

    /// Waits until the screen satisfies `condition`, capturing it every 100 ms; throws with the
    /// last screen after `timeout` seconds. The screen is watched on a thread of its own
    /// (``ThreadPoll``), never on the test runner's threads: they are as many as the cores, other
    /// tests' blocking calls can hold them for seconds, and a screen that shows for a moment (a
    /// countdown) would be missed — while a thread of its own waits without holding one of them.
    ///
    /// - Parameters:
    ///   - what: What is awaited, for the error.
    ///   - timeout: Seconds.
    ///   - condition: The test on the captured text (called on the watching thread).
    /// - Returns: The screen that satisfied it.
    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 20, _ condition: @escaping (String) -> Bool) async throws -> String {
        let watch = ScreenWatch()
        let seen = await ThreadPoll.act(within: .milliseconds(Int64(timeout * 1000)), every: .milliseconds(100), when: {
            do {
                watch.screen = try self.capture()
            } catch {
                watch.failure = error
                return true
            }
            return condition(watch.screen)
        }) {}
        if let failure = watch.failure { throw failure }
        guard seen else { throw TestFailure("timed out after \(Int(timeout)) s waiting for \(what); screen:\n\(watch.screen)") }
        return watch.screen
    }

    /// What the watching thread of ``waitFor(_:timeout:_:)`` saw last, read once it is done.
    private final class ScreenWatch: @unchecked Sendable {
        var screen = ""
        var failure: (any Error)?
    }

    /// Stops the server and removes the scratch directory.
    func kill() {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: scratch)
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        // A tmux server started by an ordinary user wants SHELL and a HOME it may use.
        let command = Unprivileged.command(["env", "SHELL=/bin/sh", "HOME=\(scratch.path)", "tmux", "-L", socket] + arguments)
        let (status, output) = try Spawn.run(command, scratch: scratch)
        guard status == 0 else {
            throw TestFailure("tmux \(arguments.joined(separator: " ")) exited with \(status)")
        }
        return output
    }
}
