import NIOCore
import NIOEmbedded
import Testing

@testable import Receiver

@Suite("Connection registry")
struct ConnectionRegistryTests {
    @Test("closeAll closes every registered connection, also one no request was ever read from")
    func closesEveryRegisteredConnection() throws {
        let registry = ConnectionRegistry()
        let served = EmbeddedChannel(handler: registry.makeHandler())
        let neverServed = EmbeddedChannel(handler: registry.makeHandler())
        try served.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try neverServed.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2)).wait()
        try served.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\n"))
        #expect(try served.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "GET / HTTP/1.1\r\n"),
                "reads pass through")
        registry.closeAll()
        #expect(!served.isActive)
        #expect(!neverServed.isActive)
    }

    @Test("a connection that registers after closeAll is closed at once")
    func lateConnectionsAreClosed() throws {
        let registry = ConnectionRegistry()
        registry.closeAll()
        let late = EmbeddedChannel()
        try late.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2)).wait()
        try late.pipeline.syncOperations.addHandler(registry.makeHandler())
        #expect(!late.isActive)
    }
}
