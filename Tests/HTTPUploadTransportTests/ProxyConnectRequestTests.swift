@testable import HTTPUploadTransport
import Testing
import UploadModel
import UploadProtocols

@Suite("The CONNECT request to a proxy")
struct ProxyConnectRequestTests {
    @Test("CONNECT asks for host:port with Host and, with credentials, Proxy-Authorization")
    func connectRequest() throws {
        let plain = try ProxyServer(url: "http://127.0.0.1:3128")
        #expect(plain.connectRequest(toHost: "example.com", port: 8443)
            == "CONNECT example.com:8443 HTTP/1.1\r\nHost: example.com:8443\r\n\r\n")
        let authenticated = try ProxyServer(url: "http://user:password@127.0.0.1:3128")
        #expect(authenticated.connectRequest(toHost: "::1", port: 443)
            == "CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\nProxy-Authorization: Basic dXNlcjpwYXNzd29yZA==\r\n\r\n")
    }
}
