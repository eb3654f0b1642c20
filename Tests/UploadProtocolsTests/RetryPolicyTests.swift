import Foundation
import Multipart
import Testing
@testable import UploadModel
@testable import UploadProtocols

@Suite("RetryPolicy and Retry-After")
struct RetryPolicyTests {
    @Test("backoff doubles from the base, is capped, and jitter keeps it within [raw/2, raw]",
          arguments: [(1, 1000), (2, 2000), (3, 4000), (4, 8000), (7, 60_000), (100, 60_000)])
    func backoff(retry: Int, rawMilliseconds: Int64) {
        let policy = RetryPolicy()
        #expect(policy.backoff(forRetry: retry, jitter: 0) == .milliseconds(rawMilliseconds / 2))
        #expect(policy.backoff(forRetry: retry, jitter: 0.5) == .milliseconds(rawMilliseconds * 3 / 4))
        let nearlyOne = policy.backoff(forRetry: retry, jitter: 0.999_999_999)
        #expect(nearlyOne <= .milliseconds(rawMilliseconds))
        #expect(nearlyOne > .milliseconds(rawMilliseconds * 99 / 100))
    }

    @Test("error classes: connection errors, timeouts, 408, 429, a 409 with Retry-After and 5xx but 507 are retried; the rest wait for the user")
    func classes() {
        let retryable: [UploadError] = [
            .transferFailed(reason: .connectFailed(message: "refused")),
            .transferFailed(reason: .connectTimedOut),
            .transferFailed(reason: .connectionLost(message: "reset")),
            .transferFailed(reason: .idleTimedOut),
            .transferFailed(reason: .other(message: "?")),
            .serverRejected(status: 408, retryAfter: nil),
            .serverRejected(status: 429, retryAfter: nil),
            .serverRejected(status: 500, retryAfter: nil),
            .serverRejected(status: 503, retryAfter: .seconds(2)),
            .serverRejected(status: 599, retryAfter: nil),
            .serverRejected(status: 409, retryAfter: .seconds(1)),
        ]
        let final: [UploadError] = [
            .transferFailed(reason: .tlsFailed(message: "untrusted")),
            .serverRejected(status: 400, retryAfter: nil),
            .serverRejected(status: 401, retryAfter: nil),
            .serverRejected(status: 404, retryAfter: nil),
            .serverRejected(status: 413, retryAfter: nil),
            .serverRejected(status: 409, retryAfter: nil),
            .serverRejected(status: 507, retryAfter: nil, message: "disk full"),
            .serverRejected(status: 507, retryAfter: .seconds(1)),
            .serverRejected(status: 301, retryAfter: nil),
            .multipartFailed(.fileRejected(path: "/a", reason: .doesNotExist)),
            .multipartFailed(.fileChanged(path: "/a", reason: .modified)),
            .fileChangedSinceQueued(path: "/a"),
            .requestInvalid(reason: .invalidTarget(.notAURL("x"))),
        ]
        for error in retryable { #expect(error.isRetryable, "\(error)") }
        for error in final { #expect(!error.isRetryable, "\(error)") }
    }

    @Test("retries stop after the maximum; 0 disables them; jitter is drawn only for a retry")
    func maximum() {
        let policy = RetryPolicy(maximumRetries: 2)
        let error = UploadError.serverRejected(status: 502, retryAfter: nil)
        var draws = 0
        #expect(policy.delay(after: error, retriesSoFar: 0, jitter: { draws += 1; return 0 }) == .milliseconds(500))
        #expect(policy.delay(after: error, retriesSoFar: 1, jitter: { draws += 1; return 0 }) == .seconds(1))
        #expect(policy.delay(after: error, retriesSoFar: 2, jitter: { draws += 1; return 0 }) == nil)
        #expect(RetryPolicy(maximumRetries: 0).delay(after: error, retriesSoFar: 0, jitter: { draws += 1; return 0 }) == nil)
        #expect(policy.delay(after: .serverRejected(status: 404, retryAfter: nil), retriesSoFar: 0, jitter: { draws += 1; return 0 }) == nil)
        #expect(draws == 2)
    }

    @Test("Retry-After in seconds")
    func retryAfterSeconds() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.delay(from: "120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(from: " 0 ", now: now) == .zero)
        #expect(RetryAfter.delay(from: "-5", now: now) == nil)
        #expect(RetryAfter.delay(from: "soon", now: now) == nil)
        #expect(RetryAfter.delay(from: "", now: now) == nil)
    }

    @Test("Retry-After as an HTTP-date, in its three forms; a past date means now")
    func retryAfterDate() {
        let now = Date(timeIntervalSince1970: 784_111_777 - 30)  // 30 s before Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.delay(from: "Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.delay(from: "Sun Nov  6 08:49:37 1994", now: now) == .seconds(30))
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:00 GMT", now: Date(timeIntervalSince1970: 800_000_000)) == .zero)
    }

    @Test("HTTP-dates: real days only, leap years, two-digit years, any case; anything else is none")
    func httpDates() {
        func seconds(_ text: String) -> Double? { HTTPDate.parse(text)?.timeIntervalSince1970 }
        #expect(seconds("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(seconds("Tue, 29 Feb 2000 23:59:59 GMT") == 951_868_799)
        #expect(seconds("thu, 31 dec 2099 00:00:00 gmt") == 4_102_358_400)
        #expect(seconds("Wednesday, 01-Jan-31 00:00:00 GMT") == 1_924_992_000)  // 2031: within 50 years
        #expect(seconds("Thursday, 01-Jan-70 00:00:00 GMT") == 0)
        #expect(seconds("Thu Jan  1 00:00:00 1970") == 0)
        #expect(seconds("Thu Jan 01 00:00:00 1970") == 0)
        for bad in ["Mon, 29 Feb 2100 00:00:00 GMT", "Sun, 31 Apr 2024 00:00:00 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
                    "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
                    "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
                    "06 Nov 1994 08:49:37 GMT", ""] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("a response's Retry-After header is found case-insensitively")
    func responseHeader() {
        let response = UploadResponse(status: 503, headers: [.init(name: "retry-after", value: "7")])
        #expect(response.retryAfter(relativeTo: Date()) == .seconds(7))
        #expect(UploadResponse(status: 503).retryAfter(relativeTo: Date()) == nil)
    }

    @Test("a response's reason for people: a JSON error, message or detail, else the first lines of text, escaped; not HTML")
    func reasonText() {
        func reason(_ body: String, type: String? = nil) -> String? {
            UploadResponse(status: 507, headers: type.map { [HeaderField(name: "Content-Type", value: $0)] } ?? [],
                           body: Array(body.utf8)).reasonText
        }
        #expect(reason(#"{"error": "the disk is full"}"#) == "the disk is full")
        #expect(reason(#"{"message": "quota exceeded", "code": 7}"#) == "quota exceeded")
        #expect(reason(#"{"type": "about:blank", "detail": "too big"}"#, type: "application/problem+json") == "too big")
        #expect(reason("\n  No space left\nmore\n\nand more\nnot this\n") == "No space left more and more")
        #expect(reason("red \u{1B}[31m here") == "red \\x1B[31m here")
        #expect(reason(#"{"status": 507}"#) == nil, "a JSON answer without words for people")
        #expect(reason("<html><body>507</body></html>") == nil)
        #expect(reason("not for people", type: "application/octet-stream") == nil)
        #expect(reason("plain words", type: "text/plain; charset=utf-8") == "plain words")
        #expect(reason("") == nil)
        #expect(reason(String(repeating: "x", count: 400))?.count == 300)
    }

    @Test("a rejection carries the server's words: a 413's text body is part of the failure's description")
    func serverWords() {
        let response = UploadResponse(status: 413, headers: [HeaderField(name: "Content-Type", value: "text/plain")],
                                      body: Array("The request body is larger than the limit of 1024 bytes\n".utf8))
        let error = RedirectPolicy.error(for: response, jobURL: "http://h/up", followsRedirects: false, retryAfter: nil)
        #expect(error.description.contains("413: The request body is larger than the limit of 1024 bytes"), "\(error.description)")
    }

    @Test("a captured body is cut to 64 KiB")
    func bodyCap() {
        let response = UploadResponse(status: 200, body: [UInt8](repeating: 1, count: 70_000))
        #expect(response.body.count == 65_536)
        #expect(response.isBodyTruncated)
        #expect(!UploadResponse(status: 200, body: [1, 2]).isBodyTruncated)
    }

    @Test("error descriptions say what happened and what to do")
    func descriptions() {
        #expect(UploadError.serverRejected(status: 503, retryAfter: .seconds(5)).description
            == "the server answered 503 (Retry-After 5 s); retrying may help")
        #expect(UploadError.serverRejected(status: 403, retryAfter: nil).description
            == "the server answered 403; check the URL, headers and fields, then retry")
        #expect(UploadError.serverRejected(status: 507, retryAfter: nil, message: "Insufficient storage: the disk is full").description
            == "the server has no room for the upload (507 Insufficient Storage): \"Insufficient storage: the disk is full\"; "
            + "not retried: free space on the server, then retry")
        #expect(UploadError.serverRejected(status: 507, retryAfter: nil).description
            == "the server has no room for the upload (507 Insufficient Storage); not retried: free space on the server, then retry")
        #expect(UploadError.fileChangedSinceQueued(path: "/a/b.txt").description
            == "/a/b.txt: changed since it was queued; retry the job to send its current content")
        #expect(UploadError.multipartFailed(.fileRejected(path: "/a/dir", reason: .isDirectory)).description.hasPrefix("/a/dir: is a directory"))
        #expect(UploadError.multipartFailed(.fileRejected(path: "/a/dir", reason: .isDirectory)).path == "/a/dir")
    }
}
