import NIOCore
import Synchronization

/// Every connection the receiver has accepted and not yet seen close, so that stopping closes
/// each of them.
///
/// Cancelling Hummingbird's server task is not enough on its own: a connection NIO has accepted
/// but the accept loop has not yet taken is dropped from the loop's buffer without being closed
/// (swift-nio issue 2813), and its client would wait for ever. Connections register from their
/// pipeline (``ConnectionRegistration``), on the event loop, at accept time, so none is missed
/// however busy the Swift concurrency pool is. The state lives in a `Mutex`.
final class ConnectionRegistry: Sendable {
    private struct State {
        var open: [ObjectIdentifier: any Channel] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())

    /// A handler for a new connection's pipeline that registers the connection.
    func makeHandler() -> ConnectionRegistration {
        ConnectionRegistration(registry: self)
    }

    /// Records an open connection; once ``closeAll()`` has run, closes it instead.
    ///
    /// - Parameter channel: The connection.
    func register(_ channel: any Channel) {
        let closeNow = state.withLock { state in
            guard !state.isClosed else { return true }
            state.open[ObjectIdentifier(channel)] = channel
            return false
        }
        if closeNow { channel.close(promise: nil) }
    }

    /// Forgets a connection that has closed.
    ///
    /// - Parameter channel: The connection.
    func unregister(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Closes every open connection, and from now on every new one as soon as it registers.
    func closeAll() {
        let channels = state.withLock { state in
            state.isClosed = true
            defer { state.open = [:] }
            return Array(state.open.values)
        }
        for channel in channels { channel.close(promise: nil) }
    }
}
