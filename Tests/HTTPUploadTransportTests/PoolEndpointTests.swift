import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

/// The pool's key: what identifies a connection, not the whole options.
@Suite("Pool endpoints")
struct PoolEndpointTests {
    @Test("options that do not shape a connection share it: redirects; trust for plain http; a proxy for the other scheme or a host it skips")
    func sharedConnections() {
        let plain = ConnectionOptions()
        var redirecting = plain
        redirecting.followsRedirects = true
        #expect(PoolEndpoint(scheme: "https", host: "a.test", port: 443, options: plain)
            == PoolEndpoint(scheme: "https", host: "a.test", port: 443, options: redirecting))
        let trusting = ConnectionOptions(certificateAuthorityFile: "/ca.pem", offersHTTP2: true)
        #expect(PoolEndpoint(scheme: "http", host: "a.test", port: 80, options: plain)
            == PoolEndpoint(scheme: "http", host: "a.test", port: 80, options: trusting))
        let httpsProxy = ConnectionOptions(httpsProxy: "http://proxy.test:3128")
        #expect(PoolEndpoint(scheme: "http", host: "a.test", port: 80, options: plain)
            == PoolEndpoint(scheme: "http", host: "a.test", port: 80, options: httpsProxy))
        let skipped = ConnectionOptions(httpsProxy: "http://proxy.test:3128", noProxy: ["a.test"])
        #expect(PoolEndpoint(scheme: "https", host: "a.test", port: 443, options: plain)
            == PoolEndpoint(scheme: "https", host: "a.test", port: 443, options: skipped))
    }

    @Test("what shapes a connection splits the pool: trust, client certificate and ALPN for https; the proxy and its credentials")
    func separateConnections() {
        let https = { (options: ConnectionOptions) in PoolEndpoint(scheme: "https", host: "a.test", port: 443, options: options) }
        let variants = [
            ConnectionOptions(),
            ConnectionOptions(verifiesCertificates: false),
            ConnectionOptions(certificateAuthorityFile: "/ca.pem"),
            ConnectionOptions(certificateAuthorityDirectory: "/certs"),
            ConnectionOptions(clientCertificateFile: "/client.pem"),
            ConnectionOptions(clientCertificateFile: "/client.pem", clientKeyFile: "/client.key"),
            ConnectionOptions(offersHTTP2: true),
            ConnectionOptions(httpsProxy: "http://proxy.test:3128"),
            ConnectionOptions(httpsProxy: "http://user:secret@proxy.test:3128"),
        ]
        for (index, left) in variants.enumerated() {
            for right in variants[(index + 1)...] {
                #expect(https(left) != https(right), "\(left) and \(right)")
            }
        }
    }

    @Test("a proxy URL that cannot be used is kept as the endpoint's failure, for the connect to report")
    func unusableProxy() {
        let endpoint = PoolEndpoint(scheme: "http", host: "a.test", port: 80, options: ConnectionOptions(httpProxy: "socks5://p.test"))
        #expect(throws: UploadError.self) { try ProxyRoute(to: endpoint) }
    }
}
