import Foundation
import Receiver
import Testing

/// `Idempotency-Key` at `/upload`, driven by curl: a repeat of a stored upload's key stores
/// nothing and gets the first answer; a key whose first request stored nothing is fresh again;
/// a key used for another request is refused; every answer to a keyed request names the key back.
@Suite("Idempotency-Key at /upload")
struct IdempotencyKeyTests {
    /// An upload of `path` as `name` with `headers`; the answer's header lines, lowercased, are
    /// read from a file.
    static func upload(_ url: String, path: String, name: String, headers: [String],
                       in directory: TestDirectory) async throws -> (result: Curl.Result, headers: [String]) {
        let headerFile = directory.source + "/answer-\(UUID().uuidString).txt"
        let result = try await Curl.run(headers.flatMap { ["-H", $0] } + [
            "-D", headerFile, "-F", Curl.fileField("file", path: path, filename: name), url + "/upload",
        ])
        let text = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        return (result, text.lowercased().components(separatedBy: "\r\n").filter { !$0.isEmpty })
    }

    @Test("a repeat of a stored upload's key is read whole, stores nothing and gets the first answer, marked replayed")
    func replay() async throws {
        try await ReceiverHarness.run { harness in
            let path = try harness.directory.writeSource("a", RandomBytes.make(40_000, seed: 7))
            let first = try await Self.upload(harness.url, path: path, name: "a.bin", headers: [#"Idempotency-Key: "job-1""#],
                                              in: harness.directory)
            #expect(first.result.status == 200, "\(first.result.body)")
            #expect(first.headers.contains(#"idempotency-key: "job-1""#), "\(first.headers)")
            let again = try await Self.upload(harness.url, path: path, name: "a.bin", headers: [#"Idempotency-Key: "job-1""#],
                                              in: harness.directory)
            #expect(again.result.status == 200)
            #expect(again.result.exitCode == 0, "the body was read: \(again.result.errorOutput)")
            #expect(again.result.body == first.result.body, "the first answer, byte for byte")
            #expect(again.headers.contains("idempotent-replayed: true"), "\(again.headers)")
            #expect(!first.headers.contains("idempotent-replayed: true"))
            #expect(try harness.directory.uploadedNames() == ["a.bin"], "stored once")
            #expect(harness.server.receivedUploads.count == 1)
            let posts = harness.logs.all.filter { $0.method == "POST" }
            #expect(posts.map(\.replayed) == [nil, true])
            #expect(posts.last?.bytes ?? 0 > 40_000, "the repeat's body was read")

            let plain = try await Self.upload(harness.url, path: path, name: "b.bin", headers: [], in: harness.directory)
            #expect(plain.result.status == 200)
            #expect(!plain.headers.contains { $0.hasPrefix("idempotency-key:") }, "no key, none named back")
        }
    }

    @Test("a key whose first request stored nothing (a 500) is fresh again: the retry is stored")
    func keyAfterFailure() async throws {
        try await ReceiverHarness.run(faults: FaultPlan(failFirst: 1)) { harness in
            let path = try harness.directory.writeSource("c", RandomBytes.make(5_000, seed: 8))
            let first = try await Self.upload(harness.url, path: path, name: "c.bin", headers: [#"Idempotency-Key: "job-2""#],
                                              in: harness.directory)
            #expect(first.result.status == 500)
            #expect(first.headers.contains(#"idempotency-key: "job-2""#), "a failure names the key back too: \(first.headers)")
            let retry = try await Self.upload(harness.url, path: path, name: "c.bin", headers: [#"Idempotency-Key: "job-2""#],
                                              in: harness.directory)
            #expect(retry.result.status == 200)
            #expect(!retry.headers.contains("idempotent-replayed: true"))
            #expect(try harness.directory.uploadedNames() == ["c.bin"])
        }
    }

    @Test("a key used for a request of another length is refused with 422; a malformed key with 400")
    func reusedAndMalformed() async throws {
        try await ReceiverHarness.run { harness in
            let small = try harness.directory.writeSource("s", RandomBytes.make(1_000, seed: 9))
            let large = try harness.directory.writeSource("l", RandomBytes.make(2_000, seed: 10))
            let key = #"Idempotency-Key: "job-3""#
            #expect(try await Self.upload(harness.url, path: small, name: "s.bin", headers: [key], in: harness.directory).result.status == 200)
            let other = try await Self.upload(harness.url, path: large, name: "s.bin", headers: [key], in: harness.directory)
            #expect(other.result.status == 422)
            #expect(try ReceiverHarness.decodeError(other.result.body).contains("used for another request"))
            let malformed = try await Self.upload(harness.url, path: small, name: "m.bin", headers: [#"Idempotency-Key: "a b""#],
                                                  in: harness.directory)
            #expect(malformed.result.status == 400)
            #expect(try ReceiverHarness.decodeError(malformed.result.body).contains("visible ASCII"))
            #expect(try harness.directory.uploadedNames() == ["s.bin"])
        }
    }
}
