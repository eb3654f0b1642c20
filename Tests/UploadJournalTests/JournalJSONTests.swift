import FileSystem
import Foundation
import Multipart
import Testing
@testable import UploadModel
@testable import UploadJournal

/// The journal's JSON columns go both ways through the values' `Codable` forms: what it writes
/// reads back as the same values, however odd, and what earlier versions wrote still reads.
@Suite("JournalJSON")
struct JournalJSONTests {
    static let awkwardPath = "/data/\"quoted\" \\ back/tab\there/line\nbreak/\u{1}ctl/caf\u{EFE9}.txt/üñï/"

    static func spec(files: [QueuedFile], connection: ConnectionOptions = ConnectionOptions()) -> UploadJobSpec {
        UploadJobSpec(
            url: "https://example.test/up?a=\"b\"",
            method: "PUT",
            headers: [HeaderField(name: "Authorization", value: "Bearer s\"e/c\\ret")],
            fileField: "upload",
            textFields: [FormTextField(name: "album", value: "holi\ndays")],
            extraFileParts: [ExtraFilePart(name: "meta", path: "/tmp/meta.json", contentType: "application/json")],
            files: files,
            maximumRetries: 7,
            connection: connection
        )
    }

    @Test("a spec decodes as itself: files with and without stamps and identities, escapes, options, shared fields")
    func specRoundTrips() throws {
        var options = ConnectionOptions()
        options.followsRedirects = true
        let template = Self.spec(files: [], connection: options)
        let specs = [
            template.replacingFiles([QueuedFile(path: Self.awkwardPath, size: 1234, modificationTimeNanoseconds: -5)]),
            template.replacingFiles([QueuedFile(path: "missing", size: nil, modificationTimeNanoseconds: nil)]),
            template.replacingFiles([QueuedFile(path: "c", stamp: FileStamp(
                size: 3, modificationTimeNanoseconds: 4, identity: FileIdentity(device: UInt64.max, inode: 1 << 40)))]),
            template.replacingFiles([]),
            template.replacingFiles([QueuedFile(path: "a", size: 0, modificationTimeNanoseconds: Int64.max),
                                     QueuedFile(path: "b", size: Int64.max, modificationTimeNanoseconds: Int64.min)]),
            UploadJobSpec(url: "http://plain.test/", files: [QueuedFile(path: "x", size: 1, modificationTimeNanoseconds: 2)]),
            template.replacingFiles([QueuedFile(path: "/p/2024/a \"b\".jpg", size: 1, modificationTimeNanoseconds: 2,
                                                partFilename: "p/2024/a \"b\".jpg")]),
        ]
        var json = JournalJSON()
        for spec in specs {
            let text = try json.spec(spec)
            let decoded = try JournalJSON.value(UploadJobSpec.self, from: Data(text.utf8))
            #expect(decoded == spec, "\(text)")
            // The same as JSONEncoder's own text, read back.
            let reference = try JSONDecoder().decode(UploadJobSpec.self, from: JSONEncoder().encode(spec))
            #expect(decoded == reference)
        }
    }

    @Test("a file row written before part filenames reads back with none (its part named by its path)")
    func oldFileRowHasNoPartFilename() throws {
        let row = #"[{"path":"/p/a.jpg","size":1,"modificationTimeNanoseconds":2}]"#
        let files = try JSONDecoder().decode([QueuedFile].self, from: Data(row.utf8))
        #expect(files == [QueuedFile(path: "/p/a.jpg", size: 1, modificationTimeNanoseconds: 2)])
        #expect(files.first?.partFilename == nil)
    }

    @Test("a batch's shared fields are encoded once; a spec with other fields gets its own")
    func sharedFieldsAreReusedOnlyForTheSameStorage() throws {
        let one = Self.spec(files: [QueuedFile(path: "1", size: 1, modificationTimeNanoseconds: 1)])
        var other = one
        other.url = "https://elsewhere.test/"
        var json = JournalJSON()
        _ = try json.spec(one)
        let decoded = try JSONDecoder().decode(UploadJobSpec.self, from: Data(try json.spec(other).utf8))
        #expect(decoded.url == "https://elsewhere.test/")
        #expect(decoded == other)
    }

    @Test("an attempt history decodes as itself: dates, durations (negative, long), every optional")
    func attemptsRoundTrip() throws {
        let attempts = [
            UploadAttempt(number: 1, outcome: .failed, startedAt: Date(timeIntervalSince1970: 1_700_000_000.123456),
                          duration: .milliseconds(1503), bytesSent: 10, totalBytes: 20, status: 503,
                          error: "the server answered 503: \"busy\"\n\\", retryDelay: .seconds(2.5)),
            UploadAttempt(number: 2, outcome: .interrupted),
            UploadAttempt(number: 3, outcome: .cancelled, startedAt: Date(timeIntervalSinceReferenceDate: -12.5),
                          duration: .nanoseconds(-3), bytesSent: 0, totalBytes: nil),
            UploadAttempt(number: 4, outcome: .succeeded, startedAt: Date(timeIntervalSinceReferenceDate: 0),
                          duration: .seconds(10_000_000_000), bytesSent: Int64.max, totalBytes: Int64.max, status: 201,
                          retryDelay: .zero),
        ]
        let json = JournalJSON()
        let text = try json.text(attempts)
        let decoded = try JournalJSON.value([UploadAttempt].self, from: Data(text.utf8))
        #expect(decoded == attempts, "\(text)")
        #expect(try json.text([UploadAttempt]()) == "[]")
    }

    @Test("files and attempts as earlier versions wrote them (by hand, member by member) read back")
    func earlierRowsReadBack() throws {
        let files = #"[{"path":"/p/a.jpg","size":1,"modificationTimeNanoseconds":2,"device":3,"inode":4,"partFilename":"p/a.jpg"}]"#
        #expect(try JournalJSON.value([QueuedFile].self, from: Data(files.utf8)) == [QueuedFile(
            path: "/p/a.jpg", stamp: FileStamp(size: 1, modificationTimeNanoseconds: 2,
                                               identity: FileIdentity(device: 3, inode: 4)),
            partFilename: "p/a.jpg")])
        let attempts = """
            [{"number":1,"outcome":"failed","startedAt":721692800.5,"duration":[0,1503000000000000000],\
            "bytesSent":10,"totalBytes":20,"status":503,"error":"busy","retryDelay":[0,2500000000000000000]},\
            {"number":2,"outcome":"interrupted","bytesSent":0}]
            """
        #expect(try JournalJSON.value([UploadAttempt].self, from: Data(attempts.utf8)) == [
            UploadAttempt(number: 1, outcome: .failed, startedAt: Date(timeIntervalSinceReferenceDate: 721_692_800.5),
                          duration: .milliseconds(1503), bytesSent: 10, totalBytes: 20, status: 503, error: "busy",
                          retryDelay: .milliseconds(2500)),
            UploadAttempt(number: 2, outcome: .interrupted),
        ])
    }
}
