import Multipart
import Testing
import UploadModel
import UploadProtocols

/// `RedirectPolicy` without a network: which 3xx are followed, where to (RFC 3986 resolution),
/// which headers go along, and the error a 3xx that is not followed becomes.
@Suite("Redirect policy")
struct RedirectPolicyTests {
    private let current = try! UploadTarget("http://files.test:8080/a/b/upload?x=1")
    private let secure = try! UploadTarget("https://files.test/upload")

    private func decide(_ status: Int, _ location: String?, from target: UploadTarget? = nil, hops: Int = 0,
                        followsRedirects: Bool = true) -> RedirectPolicy.Decision? {
        RedirectPolicy.decide(status: status, location: location, from: target ?? current, redirectsSoFar: hops,
                              followsRedirects: followsRedirects)
    }

    @Test("307 and 308 with -L are followed to the resolved Location")
    func followsTemporaryAndPermanent() throws {
        #expect(decide(307, "/new") == .follow(try UploadTarget("http://files.test:8080/new")))
        #expect(decide(308, "http://other.test/up") == .follow(try UploadTarget("http://other.test/up")))
        #expect(decide(307, "https://files.test/up", from: secure) == .follow(try UploadTarget("https://files.test/up")))
        #expect(decide(307, "https://files.test/up") == .follow(try UploadTarget("https://files.test/up")), "http to https")
    }

    @Test("307 and 308 without -L fail, naming the Location and -L")
    func withoutLocationOption() {
        #expect(decide(307, "/new", followsRedirects: false)
                == .refuse(.moved(server: "files.test:8080", location: "http://files.test:8080/new")))
        let error = UploadError.redirectRefused(status: 308, reason: .moved(server: "files.test:8080", location: "http://files.test:8080/new"))
        #expect(error.description == "the server at files.test:8080 moved this endpoint to http://files.test:8080/new (308); -L follows it")
        #expect(!error.isRetryable)
    }

    @Test("301, 302, 303 (and other 3xx) are never followed, with or without -L")
    func neverFollowed() {
        for status in [300, 301, 302, 303, 304, 305] {
            for follows in [true, false] {
                #expect(decide(status, "../new", followsRedirects: follows)
                        == .refuse(.moved(server: "files.test:8080", location: "http://files.test:8080/a/new")), "\(status)")
            }
        }
        let error = UploadError.redirectRefused(status: 301, reason: .moved(server: "files.test:8080", location: "http://files.test:8080/a/new"))
        #expect(error.description == "the server at files.test:8080 moved this endpoint to http://files.test:8080/a/new (301); send to that URL instead")
    }

    @Test("not a 3xx: no decision")
    func notRedirects() {
        for status in [200, 204, 299, 400, 404, 500] {
            #expect(decide(status, "/new") == nil)
        }
    }

    @Test("a 3xx without a Location (or an empty one) fails as such")
    func missingLocation() {
        #expect(decide(307, nil) == .refuse(.missingLocation(server: "files.test:8080")))
        #expect(decide(302, "  ", followsRedirects: false) == .refuse(.missingLocation(server: "files.test:8080")))
        #expect(UploadError.redirectRefused(status: 307, reason: .missingLocation(server: "files.test:8080")).description
                == "the server at files.test:8080 answered 307 without a Location")
    }

    @Test("never from https to http")
    func neverDowngrades() {
        #expect(decide(307, "http://files.test/upload", from: secure)
                == .refuse(.leavesHTTPS(server: "files.test", location: "http://files.test/upload")))
        #expect(UploadError.redirectRefused(status: 307, reason: .leavesHTTPS(server: "files.test", location: "http://files.test/upload")).description
                == "refused a redirect from https to http: http://files.test/upload (307 from files.test)")
    }

    @Test("at most 10 hops: the 11th redirect is refused")
    func hopLimit() throws {
        #expect(decide(307, "/again", hops: 9) == .follow(try UploadTarget("http://files.test:8080/again")))
        #expect(decide(307, "/again", hops: 10)
                == .refuse(.tooManyRedirects(limit: 10, server: "files.test:8080", location: "http://files.test:8080/again")))
        #expect(UploadError.redirectRefused(status: 307, reason: .tooManyRedirects(limit: 10, server: "a.test", location: "http://a.test/x")).description
                == "gave up after 10 redirects (the last, 307 from a.test, to http://a.test/x)")
    }

    @Test("a Location that is not an http(s) URL fails with -L")
    func unusableLocation() {
        #expect(decide(307, "ftp://files.test/up") == .refuse(.unusableLocation(server: "files.test:8080", location: "ftp://files.test/up")))
        #expect(decide(308, "http://") == .refuse(.unusableLocation(server: "files.test:8080", location: "http://")))
    }

    @Test("Location is resolved against the URL that answered as RFC 3986 section 5.4 does")
    func resolution() throws {
        let base = try UploadTarget("http://a/b/c/d;p?q")
        let examples = [
            "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/", "/g": "http://a/g",
            "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y", "g#s": "http://a/b/c/g#s",
            ";x": "http://a/b/c/;x", "g;x?y#s": "http://a/b/c/g;x?y#s", ".": "http://a/b/c/", "..": "http://a/b/",
            "../g": "http://a/b/g", "../..": "http://a/", "../../g": "http://a/g", "../../../g": "http://a/g",
            "/./g": "http://a/g", "/../g": "http://a/g", "g.": "http://a/b/c/g.", "..g": "http://a/b/c/..g",
            "./../g": "http://a/b/g", "./g/.": "http://a/b/c/g/", "g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h",
            "g;x=1/../y": "http://a/b/c/y", "g?y/../x": "http://a/b/c/g?y/../x", "https://z:8443/up": "https://z:8443/up",
        ]
        for (reference, expected) in examples {
            #expect(RedirectPolicy.resolve(reference, against: base)?.url == expected, "\(reference)")
        }
        #expect(RedirectPolicy.resolve("g#s", against: base)?.requestTarget == "/b/c/g", "the fragment is not sent")
        #expect(RedirectPolicy.resolve("mailto:x@y", against: base) == nil)
    }

    @Test("credentials are dropped and Host follows when the redirect leaves the origin")
    func headersAcrossOrigins() throws {
        let headers = [
            HeaderField(name: "Host", value: "files.test:8080"), HeaderField(name: "authorization", value: "Basic eDp5"),
            HeaderField(name: "Cookie", value: "s=1"), HeaderField(name: "X-Trace", value: "7"),
        ]
        let sameOrigin = try UploadTarget("http://FILES.test:8080/elsewhere")
        #expect(RedirectPolicy.headers(headers, from: current, to: sameOrigin) == headers)
        for other in ["http://other.test:8080/up", "http://files.test:8081/up", "https://files.test:8080/up"] {
            let next = try UploadTarget(other)
            #expect(RedirectPolicy.headers(headers, from: current, to: next) == [
                HeaderField(name: "Host", value: next.hostHeader), HeaderField(name: "X-Trace", value: "7"),
            ], "\(other)")
        }
        #expect(RedirectPolicy.headers(headers, from: try UploadTarget("http://files.test:80/"), to: try UploadTarget("http://files.test/x"))
                == headers, "the default port written or not is the same origin")
    }

    @Test("the queue's error for an answer: a 3xx is a refused redirect, from the URL that answered")
    func errorForAnswer() {
        let moved = UploadResponse(status: 301, headers: [HeaderField(name: "Location", value: "/v2/upload")])
        #expect(RedirectPolicy.error(for: moved, jobURL: current.url, followsRedirects: true, retryAfter: nil)
                == .redirectRefused(status: 301, reason: .moved(server: "files.test:8080", location: "http://files.test:8080/v2/upload")))
        var looped = UploadResponse(status: 307, headers: [HeaderField(name: "Location", value: "/loop")])
        looped.redirects = (1...10).map { _ in "http://loop.test/loop" }
        #expect(RedirectPolicy.error(for: looped, jobURL: current.url, followsRedirects: true, retryAfter: nil)
                == .redirectRefused(status: 307, reason: .tooManyRedirects(limit: 10, server: "loop.test", location: "http://loop.test/loop")))
        let unfollowed = UploadResponse(status: 307, headers: [HeaderField(name: "Location", value: "/v2/upload")])
        #expect(RedirectPolicy.error(for: unfollowed, jobURL: current.url, followsRedirects: true, retryAfter: nil)
                == .redirectRefused(status: 307, reason: .moved(server: "files.test:8080", location: "http://files.test:8080/v2/upload")),
                "a transport that does not follow redirects handed over one -L would follow")
        #expect(RedirectPolicy.error(for: UploadResponse(status: 503), jobURL: current.url, followsRedirects: true, retryAfter: .seconds(2))
                == .serverRejected(status: 503, retryAfter: .seconds(2)))
    }
}
