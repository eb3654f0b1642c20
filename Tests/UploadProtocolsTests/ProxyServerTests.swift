import Testing
import UploadModel
@testable import UploadProtocols

/// Proxy URLs read as curl reads `--proxy` and the `*_proxy` variables, without a socket.
@Suite("Proxy URLs")
struct ProxyServerTests {
    @Test("host and port; the port is 1080 without one; no scheme means http://", arguments: [
        ("http://proxy.example:3128", "proxy.example", 3128),
        ("HTTP://proxy.example:3128/", "proxy.example", 3128),
        ("http://proxy.example", "proxy.example", 1080),
        ("http://proxy.example:", "proxy.example", 1080),
        ("proxy.example:8080", "proxy.example", 8080),
        ("127.0.0.1", "127.0.0.1", 1080),
        ("http://[::1]:3128", "::1", 3128),
        ("[2001:db8::1]", "2001:db8::1", 1080),
    ])
    func hostAndPort(url: String, host: String, port: Int) throws {
        let proxy = try ProxyServer(url: url)
        #expect(proxy.host == host)
        #expect(proxy.port == port)
        #expect(proxy.username == nil)
        #expect(proxy.authorization == nil)
    }

    @Test("a proxy URL is read as an upload URL is: the same host, port and credentials")
    func sameReadingAsUploadURLs() throws {
        for url in ["http://us%40er:p%3Ass@proxy.example:3128/", "http://[::1]:8080", "proxy.example:8080"] {
            let proxy = try ProxyServer(url: url)
            let target = try UploadTarget(url)
            #expect(proxy.host == target.host)
            #expect(proxy.port == target.port)
            #expect(proxy.username.map { $0 + ":" + (proxy.password ?? "") } == target.basicCredentials)
        }
    }

    @Test("the address names host and port, IPv6 in brackets, never the credentials")
    func address() throws {
        #expect(try ProxyServer(url: "http://u:secret@proxy.example:3128").address == "proxy.example:3128")
        #expect(try ProxyServer(url: "http://[::1]:3128").address == "[::1]:3128")
        #expect(try ProxyServer(url: "proxy.example").description == "proxy.example:1080")
    }

    @Test("credentials are percent-decoded and sent as Basic")
    func credentials() throws {
        let proxy = try ProxyServer(url: "http://us%40er:p%3Ass%20w@proxy.example:3128")
        #expect(proxy.username == "us@er")
        #expect(proxy.password == "p:ss w")
        #expect(proxy.hasCredentials)
        // base64("us@er:p:ss w")
        #expect(proxy.authorization == "Basic dXNAZXI6cDpzcyB3")
        let userOnly = try ProxyServer(url: "http://alice@proxy.example:3128")
        #expect(userOnly.authorization == "Basic YWxpY2U6")  // "alice:"
        let atInPassword = try ProxyServer(url: "http://user:pa@ss@proxy.example:3128")
        #expect(atInPassword.password == "pa@ss")
        #expect(atInPassword.host == "proxy.example")
    }

    @Test("https:// and socks proxies are refused, naming the option and not the password", arguments: [
        "https://user:secret@proxy.example:3128", "socks5://user:secret@proxy.example:1080",
        "socks5h://proxy.example", "socks4://proxy.example",
    ])
    func unsupportedSchemes(url: String) {
        #expect {
            try ProxyServer(url: url)
        } throws: { error in
            guard let error = error as? ProxyURLError, case .unsupportedScheme = error else { return false }
            let text = error.description
            return text.contains("--proxy") && text.contains("http://") && !text.contains("secret")
                && text.contains("proxy.example")
        }
    }

    @Test("a URL without a host, with a bad port, or that is no URL is refused", arguments: [
        ("http://", "has no host"), ("http://user:secret@:3128", "has no host"),
        ("http://proxy.example:99999", "bad port"), ("http://user:secret@proxy.example:31x8", "is not a URL"),
        ("http://[::1]x", "is not a URL"), ("http://proxy example:3128", "is not a URL"),
    ])
    func malformed(url: String, words: String) {
        #expect {
            try ProxyServer(url: url)
        } throws: { error in
            let text = String(describing: error)
            return text.contains(words) && text.contains("--proxy") && !text.contains("secret")
        }
    }
}
