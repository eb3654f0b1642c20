import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The receiver's own descriptor of its listening socket, so that stopping ends the socket
/// itself and not just NIO's descriptor of it.
///
/// NIO opens sockets without close-on-exec. A process spawned while the receiver listens by
/// anything that does not close the descriptors it was not given (`posix_spawn` without a
/// close-from action, `fork` and `exec`) gets a copy of the listening socket: the tmux server
/// the end-to-end tests started that way kept it for a whole session. Closing NIO's descriptor then
/// leaves the socket listening in that process, so the port stays taken ("Address already in
/// use" for the next receiver on it) and connections to it are queued but never answered.
/// `shutdown(2)` acts on the socket rather than on one descriptor: the socket stops listening
/// for every holder, and a new socket with `SO_REUSEADDR` (Hummingbird sets it) can listen on
/// the port at once. (A socket bound to a port asked for by number stays bound, no longer
/// listening, until its last holder closes it; only a bind without `SO_REUSEADDR` sees that.)
///
/// The socket is found among the process's open descriptors by its local address (only one
/// socket can listen on an address without `SO_REUSEPORT`, which Hummingbird does not set) and
/// duplicated, close-on-exec, so the descriptor stays
/// valid whatever becomes of NIO's. It lives in a `Mutex`, so the type is `Sendable`.
final class ListeningSocket: Sendable {
    private let descriptor = Mutex<Int32?>(nil)

    /// Where the process's open descriptors are listed.
    #if os(Linux)
    private static let descriptorDirectory = "/proc/self/fd"
    #else
    private static let descriptorDirectory = "/dev/fd"
    #endif

    /// Takes a descriptor of the socket that listens on `address`; called once, while the
    /// server channel is open.
    ///
    /// Does nothing when no such socket is found (no descriptor listing, say); ``stop()`` then
    /// has nothing to do, and NIO's closing is all there is.
    /// - Parameter address: The server channel's local address.
    func adopt(listeningOn address: SocketAddress) {
        guard let found = Self.descriptor(listeningOn: address) else { return }
        let duplicate = fcntl(found, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { return }
        descriptor.withLock { $0 = duplicate }
    }

    /// Stops the socket listening, for every process that holds it, and closes this descriptor.
    ///
    /// Safe to call more than once.
    func stop() {
        guard let taken = descriptor.withLock({ descriptor in
            defer { descriptor = nil }
            return descriptor
        }) else { return }
        _ = shutdown(taken, Int32(SHUT_RDWR))
        close(taken)
    }

    /// The open descriptor of the socket that listens on `address`, if there is one.
    private static func descriptor(listeningOn address: SocketAddress) -> Int32? {
        guard let directory = opendir(descriptorDirectory) else { return nil }
        defer { closedir(directory) }
        let own = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let candidate = Int32(name), candidate != own, isListening(candidate), isBound(candidate, to: address) {
                return candidate
            }
        }
        return nil
    }

    /// Whether `candidate` is a listening socket.
    private static func isListening(_ candidate: Int32) -> Bool {
        var accepting: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(candidate, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0 && accepting != 0
    }

    /// Whether `candidate`'s local address is `address`, byte for byte.
    private static func isBound(_ candidate: Int32, to address: SocketAddress) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(candidate, $0, &length) }
        }
        guard named == 0 else { return false }
        return address.withSockAddr { expected, size in
            size == Int(length) && withUnsafeBytes(of: &storage) { memcmp($0.baseAddress!, expected, size) == 0 }
        }
    }
}
