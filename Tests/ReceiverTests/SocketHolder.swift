import Foundation
import TestSupport
import Glibc

/// A child process (`sleep`) holding a copy of one of the receiver's sockets, as every process
/// spawned while the socket is open may when its spawner does not close the descriptors it did
/// not mean to pass (the end-to-end tests' tmux server did; Foundation's `Process` does for a
/// descriptor opened while it starts the child).
///
/// The child gets that socket as its descriptor 3 and nothing else beyond standard input,
/// output and error. ``stop()`` must be called.
final class SocketHolder: Sendable {
    private let processID: pid_t

    /// Whether the child's descriptor 3 is the very socket asked for.
    let holdsSocket: Bool

    /// Starts a child holding the socket that listens on 127.0.0.1:`port`.
    ///
    /// - Parameter port: The port the receiver listens on.
    /// - Throws: ``TestFailure`` when no socket of this process listens on the port, or when
    ///   the child cannot be started.
    convenience init(listeningOn port: Int) throws {
        let listener = Self.descriptor { Self.isListening($0) && Self.port(of: $0, peer: false) == port }
        guard let listener else {
            throw TestFailure("no descriptor of this process listens on port \(port)")
        }
        try self.init(holding: listener)
    }

    /// Starts a child holding the receiver's end of a connection: the socket on 127.0.0.1:`port`
    /// whose peer is 127.0.0.1:`peerPort`.
    ///
    /// - Parameters:
    ///   - port: The port the receiver listens on.
    ///   - peerPort: The client's local port (``RawHTTPConnection/localPort``).
    /// - Throws: ``TestFailure`` when no such socket is open in this process, or when the child
    ///   cannot be started.
    convenience init(servingPort port: Int, peerPort: Int) throws {
        let accepted = Self.descriptor { Self.port(of: $0, peer: false) == port && Self.port(of: $0, peer: true) == peerPort }
        guard let accepted else {
            throw TestFailure("no descriptor of this process is connected from port \(peerPort) to port \(port)")
        }
        try self.init(holding: accepted)
    }

    private init(holding descriptor: Int32) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptor, 3)
        let closing = SpawnActions.addCloseFrom(&actions, 4)
        guard closing == 0 else { throw TestFailure("cannot add a close-from action: \(String(cString: strerror(closing)))") }
        let arguments = ["/bin/sleep", "60"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sleep", &actions, nil, argv, environ)
        guard spawned == 0 else { throw TestFailure("cannot start sleep: \(String(cString: strerror(spawned)))") }
        processID = child
        let ours = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        let theirs = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/fd/3")
        holdsSocket = ours != nil && ours == theirs
    }

    /// Kills the child and waits for it.
    func stop() {
        kill(processID, SIGKILL)
        var status: Int32 = 0
        while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
    }

    /// The first of this process's descriptors for which `matches` holds.
    private static func descriptor(where matches: (Int32) -> Bool) -> Int32? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }.first(where: matches)
    }

    /// Whether `descriptor` is a listening socket.
    private static func isListening(_ descriptor: Int32) -> Bool {
        var accepting: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0 && accepting != 0
    }

    /// The port of `descriptor`'s local (or, with `peer`, remote) address when that is an
    /// IPv4 address on 127.0.0.1.
    private static func port(of descriptor: Int32, peer: Bool) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)
            }
        }
        guard named == 0, address.sin_family == sa_family_t(AF_INET), address.sin_addr.s_addr == inet_addr("127.0.0.1")
        else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
