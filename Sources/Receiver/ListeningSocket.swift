import NIOCore
import Synchronization
import Glibc

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
/// duplicated, close-on-exec, by ``SocketDescriptors``, so the descriptor stays
/// valid whatever becomes of NIO's. It lives in a `Mutex`, so the type is `Sendable`.
/// ``ConnectionShutdown`` does the same for each accepted connection.
final class ListeningSocket: Sendable {
    private let descriptor = Mutex<Int32?>(nil)

    /// Takes a descriptor of the socket that listens on `address`; called once, while the
    /// server channel is open.
    ///
    /// Does nothing when no such socket is found (no descriptor listing, say); ``stop()`` then
    /// has nothing to do, and NIO's closing is all there is.
    /// - Parameter address: The server channel's local address.
    func adopt(listeningOn address: SocketAddress) {
        guard let duplicate = SocketDescriptors.duplicate(where: {
            SocketDescriptors.isListening($0) && SocketDescriptors.isBound($0, to: address)
        }) else { return }
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
}
