import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A child process (`sleep`) holding a copy of the receiver's listening socket, as every process
/// spawned while the receiver listens does when its spawner does not close the descriptors it
/// did not mean to pass (the end-to-end tests' tmux server did).
///
/// The child gets that socket as its descriptor 3 and nothing else beyond standard input,
/// output and error. ``stop()`` must be called.
final class ListenerHolder: Sendable {
    private let processID: pid_t

    /// Whether the child's descriptor 3 is the very socket that listens on the port.
    let holdsListener: Bool

    /// Starts the child.
    ///
    /// - Parameter port: The port the receiver listens on (127.0.0.1).
    /// - Throws: ``TestFailure`` when no socket of this process listens on the port, or when
    ///   the child cannot be started.
    init(port: Int) throws {
        guard let listener = Self.listeningDescriptor(port: port) else {
            throw TestFailure("no descriptor of this process listens on port \(port)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, listener, 3)
        let closing = SpawnActions.addCloseFrom(&actions, 4)
        guard closing == 0 else { throw TestFailure("cannot add a close-from action: \(String(cString: strerror(closing)))") }
        let arguments = ["/bin/sleep", "60"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sleep", &actions, nil, argv, environ)
        guard spawned == 0 else { throw TestFailure("cannot start sleep: \(String(cString: strerror(spawned)))") }
        processID = child
        let ours = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(listener)")
        let theirs = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/fd/3")
        holdsListener = ours != nil && ours == theirs
    }

    /// Kills the child and waits for it.
    func stop() {
        kill(processID, SIGKILL)
        var status: Int32 = 0
        while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
    }

    /// This process's descriptor of the socket listening on 127.0.0.1:`port`, if any.
    private static func listeningDescriptor(port: Int) -> Int32? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in names.compactMap({ Int32($0) }) {
            var accepting: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0, accepting != 0 else { continue }
            var address = sockaddr_in()
            var addressLength = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &addressLength) }
            }
            if named == 0, address.sin_family == sa_family_t(AF_INET), Int(UInt16(bigEndian: address.sin_port)) == port,
                address.sin_addr.s_addr == inet_addr("127.0.0.1") {
                return descriptor
            }
        }
        return nil
    }
}
