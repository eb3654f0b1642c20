import Foundation
import TestSupport
import Testing

/// `ferry send --presigned-post` against moto's S3 (server mode) with presigned POSTs boto3 made.
@Suite("ferry send --presigned-post (the built binary, moto's S3)", .serialized, .timeLimit(.minutes(2)))
struct PresignedPostS3Tests {
    /// A presigned POST for `key` in `bucket`, with a policy: at most 100,000 bytes, keys under
    /// `uploads/`, a content type and a metadata field whose value looks like a curl file part.
    /// Returns the document boto3 wrote and its fields' names in its order.
    private func presign(_ s3: MotoS3Server, bucket: String, key: String) async throws -> (document: Data, keys: [String]) {
        let output = try await s3.boto("""
        post = s3.generate_presigned_post("\(bucket)", "\(key)",
            Fields={"Content-Type": "application/octet-stream", "x-amz-meta-note": "@not-a-file;type=x/y"},
            Conditions=[["content-length-range", 1, 100000], ["starts-with", "$key", "uploads/"],
                        {"Content-Type": "application/octet-stream"}, {"x-amz-meta-note": "@not-a-file;type=x/y"}],
            ExpiresIn=600)
        print(json.dumps(list(post["fields"])))
        print(json.dumps(post))
        """)
        let lines = output.split(separator: 0x0A)
        return (Data(lines[1]), try JSONDecoder().decode([String].self, from: Data(lines[0])))
    }

    @Test("the object's bytes match; the fields go first, verbatim, in the document's order, the file last; no Authorization")
    func uploads() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("report.bin", bytes: 60_000, fill: 0x5A)
        let s3 = try await MotoS3Server.start()
        _ = try await s3.boto(#"s3.create_bucket(Bucket="ferry-test")"#)
        let (document, keys) = try await presign(s3, bucket: "ferry-test", key: "uploads/report.bin")
        let path = try dir.write("post.json", Array(document))

        let send = try FerryProcess(["send", "--json", "--presigned-post", path, file], stateHome: dir.path("state"))
        #expect(try await send.exitStatus() == 0, "\(send.errorText) \(send.outputLines)")
        #expect(send.jsonEvents.first { $0["event"] as? String == "succeeded" }?["status"] as? Int == 204)
        let object = try await s3.boto("""
        answer = s3.get_object(Bucket="ferry-test", Key="uploads/report.bin")
        print(json.dumps(answer["Metadata"]))
        sys.stdout.flush()
        sys.stdout.buffer.write(answer["Body"].read())
        """)
        let newline = try #require(object.firstIndex(of: 0x0A))
        let metadata = try JSONSerialization.jsonObject(with: object[..<newline]) as? [String: String]
        #expect(metadata?["note"] == "@not-a-file;type=x/y", "a field is text, never a file or a ;type=")
        #expect(object[(newline + 1)...] == Data(repeating: 0x5A, count: 60_000))

        // The request as sent (--dry-run, the document on standard input): fields in its order.
        #expect(keys.count >= 6 && keys != keys.sorted(), "boto3's order, which is not sorted: \(keys)")
        let dryRun = try await CompletedProcess.run(FerryBinary.commandLine(["send", "--dry-run", "--presigned-post", "-", file]), input: path)
        let dry = String(decoding: dryRun.output, as: UTF8.self)
        let names = dry.components(separatedBy: "Content-Disposition: form-data; name=\"").dropFirst()
            .compactMap { $0.components(separatedBy: "\"").first }
        #expect(names == keys + ["file"], "\(dry.prefix(2_000))")
        #expect(!dry.lowercased().contains("authorization:"))
    }

    @Test("S3's XML error is the failure's reason, in words; the job fails without retrying")
    func xmlError() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("report.bin", bytes: 1_000)
        let s3 = try await MotoS3Server.start()
        let path = try dir.write("post.json", Array(try await presign(s3, bucket: "no-such-bucket", key: "uploads/report.bin").document))
        let send = try FerryProcess(["send", "--presigned-post", path, file], stateHome: dir.path("state"))
        #expect(try await send.exitStatus() == 1)
        let failed = try #require(send.outputLines.first { $0.hasPrefix("failed") })
        #expect(failed.contains("the server answered 404: S3 refused the upload: NoSuchBucket — The specified bucket does not exist"), "\(failed)")
    }

    @Test("options a presigned POST names itself are refused")
    func conflicts() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.bin")
        let path = try dir.write("post.json", Array(#"{"url": "http://127.0.0.1:9/b", "fields": {"key": "k"}}"#.utf8))
        for extra in [["--url", "http://127.0.0.1:9/x"], ["-u", "a:b"], ["-H", "Authorization: x"], ["--field", "upload"], ["--bundle"]] {
            let process = try FerryProcess(["send", "--presigned-post", path] + extra + [file], stateHome: dir.path("state"))
            #expect(try await process.exitStatus() == 2, "\(extra)")
            #expect(process.errorText.contains("--presigned-post"), "\(extra): \(process.errorText)")
        }
        let bad = try dir.write("bad.json", Array(#"{"url": "http://127.0.0.1:9/b", "fields": ["key"]}"#.utf8))
        let process = try FerryProcess(["send", "--presigned-post", bad, file], stateHome: dir.path("state"))
        #expect(try await process.exitStatus() != 0)
        #expect(process.errorText.contains("no \"fields\""), "\(process.errorText)")
    }
}
