import Foundation
import Receiver
import Testing
import TestSupport

/// Uploads with the real curl binary against an in-process receiver.
@Suite("Uploads by curl")
struct CurlUploadTests {
    static let trickyNames = [
        "quote\"d.txt", "semi;colon.txt", "with space.txt", "café.txt", "日本語.txt", "emoji 🚀👩‍💻.bin",
        "all \"of; them\" é 日本 🎉.dat", "comma,equals=.csv",
    ]

    @Test("files with tricky names land byte-exact under their own names, with correct SHA-256")
    func trickyNames() async throws {
        try await ReceiverHarness.run { harness in
            var arguments: [String] = []
            var expected: [(name: String, bytes: [UInt8])] = []
            for (index, name) in Self.trickyNames.enumerated() {
                let bytes = RandomBytes.make(2_000 + index * 997, seed: UInt64(index))
                let path = try harness.directory.writeSource("source-\(index).bin", bytes)
                arguments += ["-F", Curl.fileField("file\(index)", path: path, filename: name)]
                expected.append((name, bytes))
            }
            arguments += ["--form-string", "note=hello; \"world\" é", "--form-string", "note=second", harness.url + "/upload"]
            let result = try await Curl.run(arguments)
            #expect(result.exitCode == 0, "\(result.errorOutput)")
            #expect(result.status == 200, "\(result.body)")
            let record = try ReceiverHarness.decodeRecord(result.body)
            #expect(record.fields == ["note": ["hello; \"world\" é", "second"]])
            try #require(record.files.count == expected.count)
            for (index, (file, want)) in zip(record.files, expected).enumerated() {
                #expect(file.field == "file\(index)")
                #expect(file.filename == want.name)
                #expect(file.savedAs == want.name)
                #expect(file.size == Int64(want.bytes.count))
                let stored = try harness.directory.uploadedBytes(file.savedAs)
                #expect(stored == want.bytes, "bytes of \(want.name)")
                let independent = try await ChildProcess.sha256sum(harness.directory.uploads + "/" + file.savedAs)
                #expect(file.sha256 == independent)
                let sourceHash = try await ChildProcess.sha256sum(harness.directory.source + "/source-\(index).bin")
                #expect(file.sha256 == sourceHash)
            }
            #expect(try harness.directory.uploadedNames() == Self.trickyNames.sorted())
        }
    }

    @Test("path-traversal filenames stay inside --dir")
    func traversal() async throws {
        try await ReceiverHarness.run { harness in
            let names = ["../../etc/passwd", "/abs/x", "..", ".hidden", "a/../../b.txt", "../../../../../../tmp/escape.txt"]
            var arguments: [String] = []
            for (index, name) in names.enumerated() {
                let path = try harness.directory.writeSource("t\(index)", Array("content \(index)".utf8))
                arguments += ["-F", Curl.fileField("f", path: path, filename: name)]
            }
            let result = try await Curl.run(arguments + [harness.url + "/upload"])
            #expect(result.status == 200, "\(result.body)")
            let record = try ReceiverHarness.decodeRecord(result.body)
            #expect(record.files.map(\.savedAs) == ["passwd", "x", "upload", "hidden", "b.txt", "escape.txt"])
            #expect(record.files.map(\.filename) == names)
            #expect(try harness.directory.uploadedNames() == ["b.txt", "escape.txt", "hidden", "passwd", "upload", "x"])
            #expect(try harness.directory.rootNames() == ["source", "uploads"])
            #expect(!FileManager.default.fileExists(atPath: "/tmp/escape.txt"))
            for (index, file) in record.files.enumerated() {
                #expect(try harness.directory.uploadedBytes(file.savedAs) == Array("content \(index)".utf8))
            }
        }
    }

    @Test("duplicates get -N suffixes and an existing file is never overwritten")
    func duplicates() async throws {
        try await ReceiverHarness.run { harness in
            try TestFile.write(Array("original".utf8), to: harness.directory.uploads + "/keep.txt")
            let one = try harness.directory.writeSource("one", Array("one".utf8))
            let two = try harness.directory.writeSource("two", Array("two".utf8))
            let first = try await Curl.run([
                "-F", Curl.fileField("a", path: one, filename: "same.txt"),
                "-F", Curl.fileField("b", path: two, filename: "same.txt"),
                "-F", Curl.fileField("c", path: one, filename: "keep.txt"),
                harness.url + "/upload",
            ])
            let second = try await Curl.run(["-F", Curl.fileField("a", path: two, filename: "same.txt"), harness.url + "/upload"])
            #expect(try ReceiverHarness.decodeRecord(first.body).files.map(\.savedAs) == ["same.txt", "same-1.txt", "keep-1.txt"])
            #expect(try ReceiverHarness.decodeRecord(second.body).files.map(\.savedAs) == ["same-2.txt"])
            #expect(try harness.directory.uploadedBytes("keep.txt") == Array("original".utf8))
            #expect(try harness.directory.uploadedBytes("keep-1.txt") == Array("one".utf8))
            #expect(try harness.directory.uploadedBytes("same.txt") == Array("one".utf8))
            #expect(try harness.directory.uploadedBytes("same-1.txt") == Array("two".utf8))
            #expect(try harness.directory.uploadedBytes("same-2.txt") == Array("two".utf8))
        }
    }

    @Test("concurrent uploads of one filename all get distinct names")
    func concurrentDuplicates() async throws {
        try await ReceiverHarness.run { harness in
            let count = 8
            let paths = try (0..<count).map { try harness.directory.writeSource("c\($0)", Array("payload \($0)".utf8)) }
            let url = harness.url
            let records = try await withThrowingTaskGroup(of: UploadRecord.self) { group in
                for path in paths {
                    group.addTask {
                        let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "race.txt"), url + "/upload"])
                        return try ReceiverHarness.decodeRecord(result.body)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let saved = records.flatMap(\.files)
            #expect(Set(saved.map(\.savedAs)).count == count)
            #expect(try harness.directory.uploadedNames().count == count)
            var contents = Set<String>()
            for file in saved {
                contents.insert(String(decoding: try harness.directory.uploadedBytes(file.savedAs), as: UTF8.self))
            }
            #expect(contents == Set((0..<count).map { "payload \($0)" }))
        }
    }

    @Test("all upload routes accept uploads; other paths and methods do not")
    func routes() async throws {
        try await ReceiverHarness.run { harness in
            let path = try harness.directory.writeSource("r", Array("route".utf8))
            for (route, name) in [("/upload", "a.txt"), ("/multiupload", "b.txt"), ("/upload/deep/path", "c.txt"), ("/upload/", "d.txt")] {
                let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: name), harness.url + route])
                #expect(result.status == 200, "\(route): \(result.body)")
                #expect(try ReceiverHarness.decodeRecord(result.body).files.first?.savedAs == name)
            }
            let elsewhere = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "e.txt"), harness.url + "/elsewhere"])
            #expect(elsewhere.status == 404)
            #expect(try ReceiverHarness.decodeError(elsewhere.body) == "Not Found")
            let getUpload = try await Curl.run([harness.url + "/upload"])
            #expect(getUpload.status == 404)
            #expect(try harness.directory.uploadedNames() == ["a.txt", "b.txt", "c.txt", "d.txt"])
        }
    }

    @Test("GET / explains how to send; GET /uploads lists each stored request")
    func getRoutes() async throws {
        try await ReceiverHarness.run { harness in
            let home = try await Curl.run([harness.url + "/"])
            #expect(home.status == 200)
            #expect(home.body.contains("curl -F file=@"))
            #expect(home.body.contains(harness.url + "/upload"))
            #expect(home.body.contains(harness.server.directory))

            let empty = try await Curl.run([harness.url + "/uploads"])
            #expect(try JSONDecoder().decode([UploadRecord].self, from: Data(empty.body.utf8)) == [])

            let path = try harness.directory.writeSource("g", Array("listed".utf8))
            let first = try await Curl.run(["-F", "title=first", "-F", Curl.fileField("f", path: path, filename: "one.txt"), harness.url + "/upload"])
            let second = try await Curl.run(["-F", "title=second", harness.url + "/upload"])
            let failed = try await Curl.run(["-d", "x=1", harness.url + "/upload"])
            #expect(failed.status == 415)
            let list = try await Curl.run([harness.url + "/uploads"])
            let records = try JSONDecoder().decode([UploadRecord].self, from: Data(list.body.utf8))
            #expect(records == [try ReceiverHarness.decodeRecord(first.body), try ReceiverHarness.decodeRecord(second.body)])
            #expect(records.map(\.fields) == [["title": ["first"]], ["title": ["second"]]])
            #expect(records[0].files.map(\.savedAs) == ["one.txt"])
            #expect(harness.server.receivedUploads == records)
        }
    }

    @Test("an empty file and an empty field are stored as empty")
    func emptyParts() async throws {
        try await ReceiverHarness.run { harness in
            let path = try harness.directory.writeSource("empty", [])
            let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "empty.txt"), "-F", "blank=", harness.url + "/upload"])
            let record = try ReceiverHarness.decodeRecord(result.body)
            #expect(record.fields == ["blank": [""]])
            #expect(record.files.map(\.size) == [0])
            #expect(record.files.first?.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            #expect(try harness.directory.uploadedBytes("empty.txt") == [])
        }
    }

    @Test("each request is logged with method, path, status, bytes, fields and files")
    func requestLog() async throws {
        try await ReceiverHarness.run { harness in
            let path = try harness.directory.writeSource("l", Array("logged".utf8))
            let result = try await Curl.run(["-F", "k=v", "-F", Curl.fileField("f", path: path, filename: "log.txt"), harness.url + "/upload?x=1"])
            let record = try ReceiverHarness.decodeRecord(result.body)
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.path == "/upload?x=1")
            #expect(entry.status == 200)
            #expect(entry.fields == record.fields)
            #expect(entry.files == record.files)
            #expect(entry.bytes > 6)
            #expect(entry.error == nil)
            _ = try await Curl.run([harness.url + "/nowhere"])
            let missing = try #require(await harness.logs.waitFor { $0.path == "/nowhere" })
            #expect(missing.status == 404)
            #expect(missing.method == "GET")
        }
    }
}
