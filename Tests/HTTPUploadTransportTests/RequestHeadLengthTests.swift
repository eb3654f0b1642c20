import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import HTTPUploadTransport

/// `ExchangeHandler.wireLength(of:)` is the number of bytes NIO's encoder writes for a head, so
/// progress on plain TCP starts counting the body where its first byte is in the stream.
@Suite("A request head's length on the wire")
struct RequestHeadLengthTests {
    @Test("the computed length is what HTTPRequestEncoder writes, for origin- and absolute-form targets and UTF-8 values",
          arguments: ["/upload", "http://127.0.0.1:8080/upload?x=%C3%BC", "/files/ünï"])
    func matchesTheEncoder(uri: String) throws {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "127.0.0.1:8080")
        headers.add(name: "Content-Type", value: "multipart/form-data; boundary=----ferry")
        headers.add(name: "X-Note", value: "über ✓")
        headers.add(name: "Content-Length", value: "12345")
        let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: uri, headers: headers)
        let channel = EmbeddedChannel(handler: HTTPRequestEncoder())
        try channel.writeOutbound(HTTPClientRequestPart.head(head))
        var written = 0
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { written += buffer.readableBytes }
        #expect(Int64(written) == ExchangeHandler.wireLength(of: head))
        _ = try channel.finish()
    }
}
