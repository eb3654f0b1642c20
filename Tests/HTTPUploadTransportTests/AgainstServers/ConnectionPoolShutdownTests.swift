import Foundation
import NIOCore
import NIOPosix
import Synchronization
import TestSupport
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

/// `ConnectionPool.shutdown()` with real sockets: a lease whose connection is still being set up
/// fails at once, not when the connect ends.
@Suite("Connection pool shutdown", .serialized, .timeLimit(.minutes(2)))
struct ConnectionPoolShutdownTests {
    /// Accepts TCP connections and never says a word (a TLS handshake waits for ever), printing
    /// `accepted` for each.
    static let silentServer = """
    import socket
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print("PORT", listener.getsockname()[1], flush=True)
    held = []
    while True:
        client, _ = listener.accept()
        held.append(client)
        print("accepted", flush=True)
    """

    /// What a lease was given.
    final class Delivered: Sendable {
        let result = Mutex<Result<PooledConnection, UploadError>?>(nil)
    }

    @Test("shutdown while the TLS handshake of a lease's connection hangs: the lease fails at once as stopped")
    func shutdownWithConnectInFlight() async throws {
        let server = try PythonScriptServer(script: Self.silentServer)
        let pool = ConnectionPool(
            settings: .init(maximumPerEndpoint: 2, pooledIdleTimeout: .seconds(60),
                            tlsContexts: TLSContextCache(make: TLSContextFactory.context(for:))),
            group: MultiThreadedEventLoopGroup.singleton)
        let endpoint = PoolEndpoint(scheme: "https", host: "127.0.0.1", port: server.port,
                                    options: ConnectionOptions(verifiesCertificates: false))
        let delivered = Delivered()
        pool.lease(pool.makeLeaseID(), to: endpoint, fresh: false, connectTimeout: .seconds(60)) { result in
            delivered.result.withLock { $0 = result }
        }
        #expect(try await server.wait(for: "accepted"), "the connection reached the server")
        #expect(pool.census.connecting == 1)
        await pool.shutdown()
        // Failed by the shutdown itself, not by the connect (which would take up to 60 s).
        guard case let .failure(error)? = delivered.result.withLock({ $0 }) else {
            Issue.record("the lease was not failed by the shutdown: \(String(describing: delivered.result.withLock { $0 }))")
            server.stop()
            return
        }
        #expect(error == .transferFailed(reason: .other(message: "the transfer was stopped")))
        server.stop()
    }
}
