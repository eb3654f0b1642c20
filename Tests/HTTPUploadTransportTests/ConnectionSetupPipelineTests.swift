import NIOCore
import NIOEmbedded
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
import UploadProtocols

/// The HTTP/1.1 pipeline `ConnectionSetup.initialize` builds on `EmbeddedChannel` decides how a
/// body's files are written: as file regions on plain TCP (a forwarding proxy's included), as
/// buffers over TLS.
@Suite("Connection setup: file regions on plain TCP only")
struct ConnectionSetupPipelineTests {
    private static func exchangeHandler(scheme: String, route: ProxyRoute) throws -> ExchangeHandler {
        let channel = EmbeddedChannel()
        let options = ConnectionOptions()
        let endpoint = PoolEndpoint(scheme: scheme, host: "example.com", port: scheme == "https" ? 443 : 80, options: options)
        let setup = ConnectionSetup(plan: ConnectionSetup.Plan(
            endpoint: endpoint, route: route,
            tls: scheme == "https" ? try TLSContextFactory.context(for: TLSIdentity(options)) : nil,
            pooledIdleTimeout: .seconds(30), http2Listener: .init(goingAway: {}, streamCapacityChanged: { _ in })
        ), eventLoop: channel.eventLoop)
        try setup.initialize(channel)
        return try channel.pipeline.syncOperations.handler(type: ExchangeHandler.self)
    }

    @Test("plain http, direct or through a forwarding proxy: file regions")
    func plainHTTP() throws {
        #expect(try Self.exchangeHandler(scheme: "http", route: .direct).sendsFileRegions)
        let proxy = try ProxyServer(url: "http://127.0.0.1:3128")
        #expect(try Self.exchangeHandler(scheme: "http", route: .forward(through: proxy)).sendsFileRegions)
    }

    @Test("https (HTTP/1.1 over TLS): buffers")
    func https() throws {
        #expect(try !Self.exchangeHandler(scheme: "https", route: .direct).sendsFileRegions)
    }
}
