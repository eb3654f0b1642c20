import Glibc
import NIOCore
import NIOPosix
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

@Suite("The upload connection's socket options")
struct UploadSocketOptionsTests {
    @Test("TCP_NODELAY is on and SO_DEBUG (which only root may set) is off")
    func noDelayNotDebug() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        let client = try await ClientBootstrap(group: group).uploadSocketOptions().connect(host: "127.0.0.1", port: port).get()
        // A socket channel's getOption for these asks the socket itself (getsockopt).
        let noDelay = try await client.getOption(.tcpOption(.tcp_nodelay)).get()
        let debug = try await client.getOption(.socketOption(NIOBSDSocket.Option(rawValue: SO_DEBUG))).get()
        try await client.close()
        try await server.close()
        try await group.shutdownGracefully()
        #expect(noDelay != 0)
        #expect(debug == 0)
    }
}
