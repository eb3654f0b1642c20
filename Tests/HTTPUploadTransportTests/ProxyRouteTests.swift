import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
import UploadProtocols

/// Which proxy a request goes through (`ConnectionOptions.proxy(for:)`, `ProxyRoute`), as curl
/// chooses it, without a socket.
@Suite("Proxy selection")
struct ProxyRouteTests {
    private let options = ConnectionOptions(httpProxy: "http://plain.proxy:3128", httpsProxy: "secure.proxy:8080")

    private func proxy(_ url: String, _ options: ConnectionOptions) throws -> String? {
        try options.proxy(for: UploadTarget(url))?.address
    }

    @Test("http:// targets use httpProxy, https:// targets httpsProxy; none set means none")
    func byScheme() throws {
        #expect(try proxy("http://example.com/upload", options) == "plain.proxy:3128")
        #expect(try proxy("https://example.com:8443/upload", options) == "secure.proxy:8080")
        #expect(try proxy("https://example.com/upload", ConnectionOptions()) == nil)
        #expect(try proxy("http://example.com/upload", ConnectionOptions(httpProxy: "")) == nil)
    }

    @Test("no_proxy: the host itself or a domain it is in, a leading dot allowed, any case", arguments: [
        (["example.com"], "example.com", true),
        (["example.com"], "a.b.example.com", true),
        ([".example.com"], "a.example.com", true),
        ([".example.com"], "example.com", true),
        (["EXAMPLE.com"], "Upload.Example.COM", true),
        (["example.com"], "badexample.com", false),
        (["example.com"], "example.com.evil", false),
        (["other.org", "example.com"], "x.example.com", true),
        (["*"], "anything.at.all", true),
        (["*"], "10.1.2.3", true),
        (["127.0.0.1"], "127.0.0.1", true),
        (["0.0.1"], "127.0.0.1", false),
        (["127.0.0"], "127.0.0.1", false),
        (["::1"], "::1", true),
        (["[::1]"], "::1", true),
        ([], "example.com", false),
    ])
    func noProxy(entries: [String], host: String, bypassed: Bool) {
        let options = ConnectionOptions(httpProxy: "http://p:1", noProxy: entries)
        #expect(options.bypassesProxy(host: host) == bypassed)
    }

    @Test("a bypassed host goes direct, for both schemes")
    func bypassedGoesDirect() throws {
        var options = options
        options.noProxy = ConnectionOptions.hostList("localhost, .internal.example")
        #expect(try proxy("http://files.internal.example/upload", options) == nil)
        #expect(try proxy("https://localhost:8443/upload", options) == nil)
        #expect(try proxy("https://public.example/upload", options) == "secure.proxy:8080")
    }

    @Test("the route: direct, forwarding for http://, a CONNECT tunnel for https://")
    func route() throws {
        let http = PoolEndpoint(scheme: "http", host: "example.com", port: 80, options: options)
        let https = PoolEndpoint(scheme: "https", host: "example.com", port: 443, options: options)
        let proxyForHTTP = try ProxyServer(url: "http://plain.proxy:3128")
        let proxyForHTTPS = try ProxyServer(url: "secure.proxy:8080")
        #expect(try ProxyRoute(to: http) == .forward(through: proxyForHTTP))
        #expect(try ProxyRoute(to: https) == .tunnel(through: proxyForHTTPS))
        #expect(try ProxyRoute(to: PoolEndpoint(scheme: "https", host: "example.com", port: 443)) == .direct)
    }

    @Test("an unusable proxy URL makes the request invalid, in words naming the option")
    func unusableProxy() {
        let endpoint = PoolEndpoint(scheme: "https", host: "example.com", port: 443,
                                    options: ConnectionOptions(httpsProxy: "socks5://user:secret@socks.example:1080"))
        #expect {
            try ProxyRoute(to: endpoint)
        } throws: { error in
            guard case .requestInvalid(reason: .invalidProxy)? = error as? UploadError else { return false }
            let text = String(describing: error)
            return !(error as! UploadError).isRetryable && text.contains("--proxy") && !text.contains("secret")
                && !text.contains("ProxyURLError")
        }
    }
}
