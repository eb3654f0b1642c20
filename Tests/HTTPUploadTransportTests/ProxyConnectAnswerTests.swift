import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

/// A proxy's answer to `CONNECT`, read from bytes as they arrive, and the error texts proxy
/// failures show, without a socket.
@Suite("Proxy CONNECT answers")
struct ProxyConnectAnswerTests {
    private func parse(_ text: String) throws -> ProxyConnectAnswer? {
        try ProxyConnectAnswer.parse(Array(text.utf8))
    }

    @Test("a 200 (HTTP/1.0 or 1.1) opens the tunnel; the head's length says where the tunnel's bytes begin")
    func established() throws {
        let tinyproxy = "HTTP/1.0 200 Connection established\r\nProxy-agent: tinyproxy/1.11.1\r\n\r\n"
        let answer = try #require(try parse(tinyproxy + "\u{16}\u{03}"))
        #expect(answer.isEstablished)
        #expect(answer.status == 200)
        #expect(answer.headLength == tinyproxy.utf8.count)
        #expect(try parse("HTTP/1.1 200 OK\n\n")?.headLength == 17)
        #expect(try parse("HTTP/1.1 204\r\n\r\n")?.isEstablished == true)
    }

    @Test("an incomplete head waits for more bytes, byte by byte")
    func incomplete() throws {
        let text = Array("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n".utf8)
        for end in 0..<text.count {
            #expect(try ProxyConnectAnswer.parse(Array(text[..<end])) == nil)
        }
        let answer = try #require(try ProxyConnectAnswer.parse(text))
        #expect(answer.status == 407)
        #expect(answer.reasonPhrase == "Proxy Authentication Required")
        #expect(!answer.isEstablished)
    }

    @Test("the reason phrase is printable and short")
    func reasonPhrase() throws {
        let answer = try #require(try parse("HTTP/1.1 403 Forb\u{1b}[31midden\u{7}" + String(repeating: "x", count: 100) + "\r\n\r\n"))
        #expect(answer.status == 403)
        #expect(answer.reasonPhrase.hasPrefix("Forb[31midden"))
        #expect(answer.reasonPhrase.count == 60)
    }

    @Test("bytes that are not HTTP, or a head that never ends, are malformed", arguments: [
        "SSH-2.0-OpenSSH_9.2\r\n", "HTTP/2 200\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 abc OK\r\n\r\n",
        "<html>",
    ])
    func notHTTP(text: String) {
        #expect(throws: ProxyConnectAnswer.Malformed.notHTTP) { try parse(text) }
    }

    @Test("a head over 16 KiB without its end is malformed")
    func tooLong() {
        let text = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Filler: 0123456789\r\n", count: 1_000)
        #expect(throws: ProxyConnectAnswer.Malformed.tooLong) { try parse(text) }
    }

    @Test("proxy failures in words, naming the proxy; 407 waits for the user, 5xx from the proxy is retried")
    func errorTexts() {
        let wants = UploadError.transferFailed(reason: .proxyAuthenticationFailed(proxy: "127.0.0.1:3128", status: 407, credentialsGiven: false))
        #expect(wants.description
            == "the proxy at 127.0.0.1:3128 wants credentials (407): give them in --proxy http://user:password@127.0.0.1:3128")
        #expect(!wants.isRetryable)
        let refused = UploadError.transferFailed(reason: .proxyAuthenticationFailed(proxy: "127.0.0.1:3128", status: 407, credentialsGiven: true))
        #expect(refused.description.hasPrefix("the proxy at 127.0.0.1:3128 refused the credentials (407)"))
        #expect(!refused.isRetryable)
        let forbidden = UploadError.transferFailed(reason: .proxyRefusedTunnel(
            proxy: "127.0.0.1:3128", target: "example.com:8443", status: 403, reasonPhrase: "Forbidden"))
        #expect(forbidden.description == "the proxy at 127.0.0.1:3128 refused to connect to example.com:8443 (403 Forbidden)")
        #expect(!forbidden.isRetryable)
        let unreachableServer = UploadError.transferFailed(reason: .proxyRefusedTunnel(
            proxy: "127.0.0.1:3128", target: "example.com:8443", status: 500, reasonPhrase: "Unable to connect"))
        #expect(unreachableServer.isRetryable)
        let down = UploadError.transferFailed(reason: .proxyConnectFailed(proxy: "127.0.0.1:3128", message: "connection refused"))
        #expect(down.description == "could not connect to the proxy 127.0.0.1:3128: connection refused")
        #expect(down.isRetryable)
    }
}
