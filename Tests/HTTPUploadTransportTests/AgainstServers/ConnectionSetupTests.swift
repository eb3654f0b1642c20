import NIOCore
import NIOPosix
import TestSupport
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

/// `ConnectionSetup` on its own, against nginx with TLS and HTTP/2, when the pool starts waiting
/// for a new connection (`ready`) late: the pool calls `ClientBootstrap.connect` from the thread
/// that asked for a lease, not from the connection's event loop, and registers its callback
/// afterwards, so on a busy machine the connect, the TLS handshake and the server's first
/// SETTINGS can all have happened on the event loop before the setup's `ready` runs. Here the
/// test waits instead of the scheduler, so the lateness is certain.
@Suite("Connection setup: a late wait loses nothing the server sent", .serialized, .timeLimit(.minutes(1)))
struct ConnectionSetupTests {
    /// Connects through `setup` (its handlers added by `initialize`, as the pool does), waits
    /// `lateness`, then waits for the connection to be ready.
    private static func connectLate(_ setup: ConnectionSetup, port: Int, lateness: Duration) async throws -> PooledConnection {
        let channel = try await ClientBootstrap(group: setup.eventLoop)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try setup.initialize(channel) } }
            .connect(to: SocketAddress(ipAddress: "127.0.0.1", port: port))
            .get()
        try await Task.sleep(for: lateness)
        return try await setup.eventLoop.flatSubmit {
            setup.ready(channel, id: .init(value: 1), deadline: .now() + .seconds(3))
        }.get()
    }

    /// The plan for `https://127.0.0.1:port`, trusting `certificates`' authority.
    private static func plan(port: Int, certificates: TestCertificates, offersHTTP2: Bool = true) throws -> ConnectionSetup.Plan {
        var options = ConnectionOptions(certificateAuthorityFile: certificates.authority)
        options.offersHTTP2 = offersHTTP2
        return ConnectionSetup.Plan(
            endpoint: PoolEndpoint(scheme: "https", host: "127.0.0.1", port: port, options: options), route: .direct,
            tls: try TLSContextFactory.context(for: TLSIdentity(options)), pooledIdleTimeout: .seconds(30),
            http2Listener: .init(goingAway: {}, streamCapacityChanged: { _ in })
        )
    }

    @Test("waited for only after the handshake and the server's SETTINGS: ready over HTTP/2, with nginx's stream limit")
    func lateWaitOverHTTP2() async throws {
        let certificates = try TestCertificates()
        let server = try HTTP2Tests.nginx(certificates)
        let setup = ConnectionSetup(plan: try Self.plan(port: server.port, certificates: certificates),
                                    eventLoop: MultiThreadedEventLoopGroup.singleton.next())
        let connection = try await Self.connectLate(setup, port: server.port, lateness: .milliseconds(500))
        // nginx allows 128 streams (http2_max_concurrent_streams); Ferry takes at most 100.
        #expect(connection.streamCapacity == HTTP2ConnectionWatcher.maximumStreams)
        connection.channel.close(promise: nil)
    }

    @Test("waited for late without --http2: ready over HTTP/1.1")
    func lateWaitOverHTTP1() async throws {
        let certificates = try TestCertificates()
        let server = try HTTP2Tests.nginx(certificates)
        let setup = ConnectionSetup(plan: try Self.plan(port: server.port, certificates: certificates, offersHTTP2: false),
                                    eventLoop: MultiThreadedEventLoopGroup.singleton.next())
        let connection = try await Self.connectLate(setup, port: server.port, lateness: .milliseconds(500))
        #expect(connection.streamCapacity == nil)
        connection.channel.close(promise: nil)
    }
}
