import Foundation
import Receiver
import TestSupport
import Testing

/// tus 1.0.0 against a real in-process receiver on 127.0.0.1.
@Suite("tus at /files/ (in-process receiver)")
struct TusServerTests {
    /// The visible names in `--dir` (the staging folder aside).
    private static func visibleNames(_ harness: ReceiverHarness) throws -> [String] {
        try harness.directory.uploadedNames().filter { !$0.hasPrefix(".") }
    }

    private static func stagedNames(_ harness: ReceiverHarness) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: harness.directory.uploads + "/.ferry-tus").sorted()
    }

    @Test("OPTIONS says what is offered, without Tus-Resumable in the request")
    func options() async throws {
        try await ReceiverHarness.run(configure: { $0.limits.maxBodySize = 123_456 }) { harness in
            let reply = try await TusWire(port: harness.server.port).send("OPTIONS", "/files/", resumable: false)
            #expect(reply.status == 204)
            #expect(reply["Tus-Resumable"] == "1.0.0")
            #expect(reply["Tus-Version"] == "1.0.0")
            #expect(reply["Tus-Extension"] == "creation,creation-with-upload,termination,expiration,checksum")
            #expect(reply["Tus-Max-Size"] == "123456")
            #expect(reply["Tus-Checksum-Algorithm"] == "sha1,sha256")
        }
    }

    @Test("create, HEAD, PATCH in chunks: the file lands in --dir under its filename, listed and logged with its SHA-256")
    func createHeadPatch() async throws {
        try await ReceiverHarness.run { harness in
            let wire = TusWire(port: harness.server.port)
            let bytes = RandomBytes.make(300_000, seed: 41)
            let source = try harness.directory.writeSource("source.bin", bytes)
            let metadata = TusWire.metadata([("filename", "résumé 日本.bin"), ("note", "ça va"), ("flag", nil)])
            let created = try await wire.send("POST", "/files/", headers: [("Upload-Length", "300000"), ("Upload-Metadata", metadata)])
            #expect(created.status == 201)
            #expect(created["Tus-Resumable"] == "1.0.0")
            let path = try #require(created["Location"])
            #expect(path.wholeMatch(of: /\/files\/[0-9a-f]{32}/) != nil, "\(path)")
            #expect(created["Upload-Expires"]?.hasSuffix(" GMT") == true)

            let head = try await wire.send("HEAD", path)
            #expect(head.status == 200)
            #expect(head["Upload-Offset"] == "0" && head["Upload-Length"] == "300000")
            #expect(head["Upload-Metadata"] == metadata)
            #expect(head["Cache-Control"] == "no-store")
            #expect(head["Upload-Expires"] != nil)

            var offset = 0
            for size in [100_000, 150_000, 50_000] {
                let reply = try await wire.patch(path, offset: offset, Array(bytes[offset..<offset + size]))
                offset += size
                #expect(reply.status == 204, "\(reply.body)")
                #expect(reply["Upload-Offset"] == String(offset))
                #expect(reply["Tus-Resumable"] == "1.0.0")
                if offset < bytes.count {
                    #expect(try await wire.send("HEAD", path)["Upload-Offset"] == String(offset))
                    #expect(try Self.visibleNames(harness) == [], "nothing in --dir before the end")
                }
            }
            #expect(try Self.visibleNames(harness) == ["résumé 日本.bin"])
            #expect(try harness.directory.uploadedBytes("résumé 日本.bin") == bytes)
            let id = String(path.dropFirst("/files/".count))
            #expect(try Self.stagedNames(harness) == [id + ".info"], "the bytes moved; the info answers HEAD until expiry")
            let finishedHead = try await wire.send("HEAD", path)
            #expect(finishedHead["Upload-Offset"] == "300000")

            let record = try #require(harness.server.receivedUploads.last)
            #expect(record.fields == ["filename": ["résumé 日本.bin"], "note": ["ça va"], "flag": [""]])
            let file = try #require(record.files.first)
            #expect(file.savedAs == "résumé 日本.bin" && file.filename == "résumé 日本.bin")
            #expect(file.size == 300_000 && file.field == path)
            #expect(file.sha256 == (try await ChildProcess.sha256sum(source)))
            let listed = try await Curl.run([harness.url + "/uploads"])
            #expect(try JSONDecoder().decode([UploadRecord].self, from: Data(listed.body.utf8)) == [record])
            let entry = try #require(await harness.logs.waitFor { $0.method == "PATCH" && !$0.files.isEmpty })
            #expect(entry.files == record.files && entry.fields == record.fields && entry.status == 204 && entry.bytes == 50_000)
        }
    }

    @Test("refusals: 412 without Tus-Resumable, 415, 409, 404, 400 metadata, 413 length and body")
    func refusals() async throws {
        try await ReceiverHarness.run(configure: { $0.limits.maxBodySize = 1000 }) { harness in
            let wire = TusWire(port: harness.server.port)
            let path = try await wire.create(length: 10)
            let noVersion = try await wire.send("HEAD", path, resumable: false)
            #expect(noVersion.status == 412 && noVersion["Tus-Version"] == "1.0.0" && noVersion["Tus-Resumable"] == "1.0.0")
            let oldVersion = try await wire.send("POST", "/files/", headers: [("Tus-Resumable", "0.2.2"), ("Upload-Length", "1")], resumable: false)
            #expect(oldVersion.status == 412)
            let wrongType = try await wire.send(
                "PATCH", path, headers: [("Content-Type", "application/octet-stream"), ("Upload-Offset", "0")], body: [1])
            #expect(wrongType.status == 415, "\(wrongType.body)")
            let wrongOffset = try await wire.patch(path, offset: 3, [1, 2])
            #expect(wrongOffset.status == 409)
            #expect(try ReceiverHarness.decodeError(wrongOffset.body).contains("offset 0"))
            let tooLong = try await wire.patch(path, offset: 0, Array(repeating: 7, count: 11))
            #expect(tooLong.status == 413)
            #expect(try await wire.send("HEAD", path)["Upload-Offset"] == "0", "nothing of the refused PATCHes was kept")
            #expect(try await wire.send("HEAD", "/files/" + String(repeating: "0", count: 32)).status == 404)
            #expect(try await wire.patch("/files/..%2F..%2Fetc", offset: 0, [1]).status == 404)
            #expect(try await wire.send("POST", "/files/", headers: [("Upload-Length", "1001")]).status == 413)
            #expect(try await wire.send("POST", "/files/", headers: [("Upload-Length", "-1")]).status == 400)
            #expect(try await wire.send("POST", "/files/").status == 400)
            #expect(try await wire.send("POST", "/files/", headers: [("Upload-Defer-Length", "1")]).status == 400)
            let badMetadata = try await wire.send("POST", "/files/", headers: [("Upload-Length", "1"), ("Upload-Metadata", "filename ###")])
            #expect(badMetadata.status == 400 && badMetadata.body.contains("Base64"))
            let statuses = harness.logs.all.map(\.status)
            #expect(statuses.contains(412) && statuses.contains(409), "refusals are logged: \(statuses)")
        }
    }

    @Test("Upload-Checksum: a match is kept, a mismatch discarded with 460 (offset unchanged), md5 is 400")
    func checksum() async throws {
        try await ReceiverHarness.run { harness in
            let wire = TusWire(port: harness.server.port)
            let path = try await wire.create(length: 20, metadata: TusWire.metadata([("filename", "sum.bin")]))
            // Digests from Python's hashlib.
            let first = Array("0123456789".utf8)
            let sha1 = "h6zsF82dzSCnFsws9nQXtxyKcBY="
            let good = try await wire.patch(path, offset: 0, first, headers: [("Upload-Checksum", "sha1 \(sha1)")])
            #expect(good.status == 204 && good["Upload-Offset"] == "10")
            let second = Array("abcdefghij".utf8)
            let wrong = "hNiYd/DUBB77a/kaFvAkjy/Vc+avBcGflr7bn4gveII="  // the first ten bytes' sha256
            let bad = try await wire.patch(path, offset: 10, second, headers: [("Upload-Checksum", "sha256 \(wrong)")])
            #expect(bad.status == 460, "\(bad.body)")
            #expect(try await wire.send("HEAD", path)["Upload-Offset"] == "10")
            let md5 = try await wire.patch(path, offset: 10, second, headers: [("Upload-Checksum", "md5 \(sha1)")])
            #expect(md5.status == 400)
            let right = "cjmTYdpqd1T+yYbcpbfLrxyBCije1KuvVrIQbQbLeLA="
            let fixed = try await wire.patch(path, offset: 10, second, headers: [("Upload-Checksum", "sha256 \(right)")])
            #expect(fixed.status == 204 && fixed["Upload-Offset"] == "20")
            #expect(try harness.directory.uploadedBytes("sum.bin") == first + second)
            // The file's digest, kept as the PATCHes arrived, has none of the discarded bytes.
            let digest = "6bc14bdc4517a7a682c6910de2e2946eb8e1ecd04090728fef6d092a7ceb62c5"  // sha256sum
            #expect(harness.server.receivedUploads.last?.files.first?.sha256 == digest)
        }
    }

    @Test("an sha256 checksum of a PATCH at 0 is the file's digest too: a mismatch is still 460, the digest still right")
    func sha256ChecksumAtZero() async throws {
        try await ReceiverHarness.run { harness in
            let wire = TusWire(port: harness.server.port)
            let bytes = Array("0123456789abcdefghij".utf8)
            let digest = "6bc14bdc4517a7a682c6910de2e2946eb8e1ecd04090728fef6d092a7ceb62c5"  // sha256sum
            let whole = "a8FL3EUXp6aCxpEN4uKUbrjh7NBAkHKP720JKnzrYsU="  // its base64
            let firstTen = "hNiYd/DUBB77a/kaFvAkjy/Vc+avBcGflr7bn4gveII="
            let rest = "cjmTYdpqd1T+yYbcpbfLrxyBCije1KuvVrIQbQbLeLA="

            let path = try await wire.create(length: 20, metadata: TusWire.metadata([("filename", "once.bin")]))
            let bad = try await wire.patch(path, offset: 0, bytes, headers: [("Upload-Checksum", "sha256 \(firstTen)")])
            #expect(bad.status == 460, "\(bad.body)")
            #expect(try await wire.send("HEAD", path)["Upload-Offset"] == "0")
            let good = try await wire.patch(path, offset: 0, bytes, headers: [("Upload-Checksum", "sha256 \(whole)")])
            #expect(good.status == 204 && good["Upload-Offset"] == "20")
            #expect(harness.server.receivedUploads.last?.files.first?.sha256 == digest)

            // A first PATCH at 0, then one at 10: the digest goes on from the first one's hash.
            let chunked = try await wire.create(length: 20, metadata: TusWire.metadata([("filename", "twice.bin")]))
            let first = try await wire.patch(chunked, offset: 0, Array(bytes[..<10]), headers: [("Upload-Checksum", "sha256 \(firstTen)")])
            #expect(first.status == 204 && first["Upload-Offset"] == "10")
            let second = try await wire.patch(chunked, offset: 10, Array(bytes[10...]), headers: [("Upload-Checksum", "sha256 \(rest)")])
            #expect(second.status == 204 && second["Upload-Offset"] == "20")
            #expect(try harness.directory.uploadedBytes("twice.bin") == bytes)
            #expect(harness.server.receivedUploads.last?.files.first?.sha256 == digest)
        }
    }

    @Test("creation-with-upload: the POST's body is stored at 0; all of it finishes the upload at once")
    func creationWithUpload() async throws {
        try await ReceiverHarness.run { harness in
            let wire = TusWire(port: harness.server.port)
            let bytes = RandomBytes.make(5000, seed: 42)
            let typed: [(String, String)] = [("Content-Type", "application/offset+octet-stream")]
            let part = try await wire.send(
                "POST", "/files/", headers: typed + [("Upload-Length", "5000"), ("Upload-Metadata", TusWire.metadata([("filename", "cwu.bin")]))],
                body: Array(bytes[..<2000]))
            #expect(part.status == 201 && part["Upload-Offset"] == "2000", "\(part.body)")
            let path = try #require(part["Location"])
            #expect(try await wire.patch(path, offset: 2000, Array(bytes[2000...])).status == 204)
            #expect(try harness.directory.uploadedBytes("cwu.bin") == bytes)

            let whole = try await wire.send(
                "POST", "/files/", headers: typed + [("Upload-Length", "5000"), ("Upload-Metadata", TusWire.metadata([("filename", "cwu.bin")]))],
                body: bytes)
            #expect(whole.status == 201 && whole["Upload-Offset"] == "5000" && whole["Location"] != nil)
            #expect(try Self.visibleNames(harness) == ["cwu-1.bin", "cwu.bin"], "the same name again gets -1")
            #expect(try harness.directory.uploadedBytes("cwu-1.bin") == bytes)

            let empty = try await wire.send("POST", "/files/", headers: [("Upload-Length", "0")])
            #expect(empty.status == 201 && empty["Upload-Offset"] == "0")
            #expect(try Self.visibleNames(harness).contains("upload"), "an empty upload with no filename is 'upload'")
            #expect(harness.server.receivedUploads.count == 3)
        }
    }

    @Test("DELETE removes the staged upload; later requests are 404")
    func termination() async throws {
        try await ReceiverHarness.run { harness in
            let wire = TusWire(port: harness.server.port)
            let path = try await wire.create(length: 10)
            #expect(try await wire.patch(path, offset: 0, [1, 2, 3]).status == 204)
            #expect(try Self.stagedNames(harness).count == 2)
            let deleted = try await wire.send("DELETE", path)
            #expect(deleted.status == 204 && deleted["Tus-Resumable"] == "1.0.0")
            #expect(try Self.stagedNames(harness) == [])
            #expect(try await wire.send("HEAD", path).status == 404)
            #expect(try await wire.patch(path, offset: 3, [4]).status == 404)
            #expect(try await wire.send("DELETE", path).status == 404)
        }
    }

    @Test("an unfinished upload expires after --tus-expire: 410, its staged files swept")
    func expiration() async throws {
        try await ReceiverHarness.run(configure: { $0.tusExpiration = .seconds(2) }) { harness in
            let wire = TusWire(port: harness.server.port)
            // Nothing in this test may depend on two requests being less than 2 s apart: a loaded
            // runner can pause that long between any two of them. So the upload is created with
            // its first bytes (one request), and only its expiry is waited for.
            let created = try await wire.send("POST", "/files/", headers: [
                ("Upload-Length", "10"), ("Content-Type", "application/offset+octet-stream"),
            ], body: [1, 2, 3])
            #expect(created.status == 201)
            #expect(created["Upload-Offset"] == "3")
            let expires = try #require(created["Upload-Expires"])
            let path = try #require(created["Location"])
            var status = 200
            let deadline = ContinuousClock.now + .seconds(20)
            while status == 200, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                status = try await wire.send("HEAD", path).status
            }
            #expect(status == 410, "expired after 2 s (Upload-Expires: \(expires))")
            #expect(try await wire.patch(path, offset: 3, [4]).status == 410)
            var staged = try Self.stagedNames(harness)
            for _ in 0..<20 where !staged.isEmpty {
                try await Task.sleep(for: .milliseconds(100))
                staged = try Self.stagedNames(harness)
            }
            #expect(staged == [], "the sweep removed its files")
        }
    }

    @Test("a PATCH cut mid-body keeps the bytes that arrived (none with a checksum); the upload resumes from there")
    func cutMidPatch() async throws {
        try await ReceiverHarness.run { harness in
            let wire = TusWire(port: harness.server.port)
            let bytes = RandomBytes.make(200_000, seed: 43)
            let path = try await wire.create(length: bytes.count, metadata: TusWire.metadata([("filename", "cut.bin")]))
            let request = wire.request(
                "PATCH", path, headers: [("Content-Type", "application/offset+octet-stream"), ("Upload-Offset", "0")],
                body: Array(bytes[..<70_000]), contentLength: bytes.count)
            let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: request)
            try await Task.sleep(for: .milliseconds(200))  // the bytes arrive; the rest never comes
            connection.close()
            let entry = try #require(await harness.logs.waitFor { $0.method == "PATCH" })
            #expect(entry.status == 0 && entry.bytes == 70_000, "\(entry)")
            #expect(entry.error?.contains("were kept") == true)
            let head = try await wire.send("HEAD", path)
            #expect(head["Upload-Offset"] == "70000")
            // With Upload-Checksum, bytes the checksum cannot vouch for are not kept.
            let checked = try await RawHTTPConnection.connect(
                port: harness.server.port,
                sending: wire.request(
                    "PATCH", path,
                    headers: [
                        ("Content-Type", "application/offset+octet-stream"), ("Upload-Offset", "70000"),
                        ("Upload-Checksum", "sha1 h6zsF82dzSCnFsws9nQXtxyKcBY="),
                    ], body: Array(bytes[70_000..<100_000]), contentLength: 130_000))
            try await Task.sleep(for: .milliseconds(200))
            checked.close()
            let checkedEntry = try #require(await harness.logs.waitFor { $0.method == "PATCH" && $0.bytes == 30_000 })
            #expect(checkedEntry.status == 0)
            #expect(try await wire.send("HEAD", path)["Upload-Offset"] == "70000")
            #expect(try await wire.patch(path, offset: 70_000, Array(bytes[70_000...])).status == 204)
            #expect(try harness.directory.uploadedBytes("cut.bin") == bytes)
        }
    }

    @Test("with a token, /files/ needs it like every route")
    func token() async throws {
        try await ReceiverHarness.run(configure: { $0.access = .token("s3cret") }) { harness in
            let anonymous = TusWire(port: harness.server.port)
            #expect(try await anonymous.send("POST", "/files/", headers: [("Upload-Length", "1")]).status == 401)
            #expect(try await anonymous.send("OPTIONS", "/files/").status == 401)
            var holder = anonymous
            holder.token = "s3cret"
            let path = try await holder.create(length: 1)
            #expect(try await anonymous.patch(path, offset: 0, [9]).status == 401)
            #expect(try await holder.patch(path, offset: 0, [9]).status == 204)
        }
    }

    @Test("an unfinished upload survives a restart of the receiver, cut back to its recorded offset")
    func restart() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let bytes = RandomBytes.make(50_000, seed: 44)
        var configuration = ReceiverConfiguration(port: 0, directory: directory.uploads, logLevel: .critical)
        let path = try await withRunningReceiver(configuration) { server in
            let wire = TusWire(port: server.port)
            let path = try await wire.create(length: bytes.count, metadata: TusWire.metadata([("filename", "again.bin")]))
            #expect(try await wire.patch(path, offset: 0, Array(bytes[..<20_000])).status == 204)
            return path
        }
        let staged = directory.uploads + "/.ferry-tus/" + path.dropFirst("/files/".count) + ".part"
        let handle = try #require(FileHandle(forWritingAtPath: staged))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 999))  // a PATCH cut by a crash before its offset was written
        try handle.close()
        configuration.port = 0
        let digest = try await withRunningReceiver(configuration) { server in
            let wire = TusWire(port: server.port)
            let head = try await wire.send("HEAD", path)
            #expect(head["Upload-Offset"] == "20000")
            #expect(try await wire.patch(path, offset: 20_000, Array(bytes[20_000...])).status == 204)
            return server.receivedUploads.last?.files.first?.sha256
        }
        #expect(try directory.uploadedBytes("again.bin") == bytes)
        // The restarted receiver never saw the first 20,000 bytes arrive: it hashed the file.
        #expect(digest == (try await ChildProcess.sha256sum(directory.uploads + "/again.bin")))
    }

    @Test("--throttle paces the body and its waits never count against the client: 200 KB at 16 KiB/s, 3 s body timeout")
    func throttle() async throws {
        // After a first read it lets through, each read of 64 KiB is held 4 s: were the
        // throttle's waits counted as the client's, the body timeout would answer 408. (3 s, not
        // less: a loaded fresh-clone run can keep the receiver's event loop from running for over
        // a second.)
        try await ReceiverHarness.run(configure: {
            $0.throttle = 16 * 1024
            $0.timeouts.body = .seconds(3)
            $0.timeouts.minimumBodyRate = 0
        }) { harness in
            let wire = TusWire(port: harness.server.port)
            let bytes = RandomBytes.make(200_000, seed: 45)
            let path = try await wire.create(length: bytes.count, metadata: TusWire.metadata([("filename", "slow.bin")]))
            let started = ContinuousClock.now
            let reply = try await wire.patch(path, offset: 0, bytes)
            let elapsed = ContinuousClock.now - started
            #expect(reply.status == 204, "\(reply.body)")
            #expect(elapsed >= .seconds(6), "200 KB at 16 KiB/s takes about 12 s less a first read, took \(elapsed)")
            #expect(try harness.directory.uploadedBytes("slow.bin") == bytes)
        }
    }

    @Test("curl PATCHes 2 MiB with Expect: 100-continue and is answered 100 Continue (not left to its 1 s wait)")
    func curlExpectContinue() async throws {
        try await ReceiverHarness.run { harness in
            let bytes = RandomBytes.make(2 << 20, seed: 46)
            let source = try harness.directory.writeSource("curl.bin", bytes)
            let path = try await TusWire(port: harness.server.port).create(
                length: bytes.count, metadata: TusWire.metadata([("filename", "curl.bin")]))
            let result = try await Curl.run([
                "-v", "-X", "PATCH", "-H", "Tus-Resumable: 1.0.0", "-H", "Content-Type: application/offset+octet-stream",
                "-H", "Upload-Offset: 0", "-H", "Expect: 100-continue", "--data-binary", "@" + source, harness.url + path,
            ])
            #expect(result.status == 204, "\(result.body) \(result.errorOutput)")
            #expect(result.errorOutput.contains("< HTTP/1.1 100 Continue"), "\(result.errorOutput)")
            #expect(try harness.directory.uploadedBytes("curl.bin") == bytes)
        }
    }

    @Test(
        "a full disk answers a PATCH 507 and removes the upload with the bytes it had: resuming it is 404, a new one fits",
        .enabled(if: Tmpfs.isPermitted, "mounting a 1 MiB tmpfs needs root (CAP_SYS_ADMIN); skipped"))
    func diskFull() async throws {
        let tmpfs = try Tmpfs(bytes: 1 << 20)
        defer { tmpfs.unmount() }
        try await ReceiverHarness.run(configure: { $0.directory = tmpfs.path + "/uploads" }) { harness in
            let wire = TusWire(port: harness.server.port)
            let bytes = RandomBytes.make(1_500_000, seed: 47)
            let path = try await wire.create(length: bytes.count, metadata: TusWire.metadata([("filename", "full.bin")]))
            #expect(try await wire.patch(path, offset: 0, Array(bytes[..<300_000])).status == 204)
            let full = try await wire.patch(path, offset: 300_000, Array(bytes[300_000...]))
            #expect(full.status == 507, "\(full.body)")
            #expect(try ReceiverHarness.decodeError(full.body).contains("POST /files/"), "tells the client to start over")
            #expect(try await wire.patch(path, offset: 300_000, Array(bytes[300_000..<600_000])).status == 404)
            #expect(try await wire.send("DELETE", path).status == 404)
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmpfs.path + "/uploads/.ferry-tus") == [])
            let again = try await wire.create(length: 600_000)
            #expect(try await wire.patch(again, offset: 0, Array(bytes[..<600_000])).status == 204, "the space came back")
        }
    }
}
