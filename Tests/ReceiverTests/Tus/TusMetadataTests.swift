import Foundation
import Testing

@testable import Receiver

@Suite("tus Upload-Metadata")
struct TusMetadataTests {
    @Test("pairs keep their order; a key alone, a key with an empty value and non-ASCII values decode")
    func parses() throws {
        let header = "filename \(Data("résumé 日本.txt".utf8).base64EncodedString()),is_confidential, empty ,note \(Data("a,b c".utf8).base64EncodedString())"
        let metadata = try TusMetadata(parsing: header)
        #expect(metadata.pairs.map(\.key) == ["filename", "is_confidential", "empty", "note"])
        #expect(metadata.text(for: "filename") == "résumé 日本.txt")
        #expect(metadata.value(for: "is_confidential") == [])
        #expect(metadata.pairs[1].value == nil)
        #expect(metadata.text(for: "empty") == "")
        #expect(metadata.text(for: "note") == "a,b c")
        #expect(metadata.text(for: "missing") == nil)
        #expect(metadata.fields == ["filename": ["résumé 日本.txt"], "is_confidential": [""], "empty": [""], "note": ["a,b c"]])
    }

    @Test("an empty header and empty elements (a trailing comma) have no pairs")
    func empty() throws {
        #expect(try TusMetadata(parsing: "").pairs.isEmpty)
        #expect(try TusMetadata(parsing: "a YQ==,").pairs.map(\.key) == ["a"])
    }

    @Test("bytes that are not UTF-8 stay bytes, written \\xNN in fields")
    func binaryValue() throws {
        let metadata = try TusMetadata(parsing: "filename \(Data([0x63, 0xE9]).base64EncodedString())")
        #expect(metadata.value(for: "filename") == [0x63, 0xE9])
        #expect(metadata.fields["filename"] == ["c\\xE9"])
    }

    @Test(
        "malformed metadata is refused (400) with what is wrong",
        arguments: [
            ("filename not*base64", "not Base64"),
            ("filename YQ", "not Base64"),
            ("a YQ==,a Yg==", "appears twice"),
            ("a  YQ==", "more than a key"),
            ("a YQ== Yg==", "more than a key"),
        ])
    func refused(header: String, detail: String) {
        #expect {
            try TusMetadata(parsing: header)
        } throws: { error in
            guard case .tusRefused(.invalidMetadata(let message)) = error as? ReceiverError else { return false }
            return message.contains(detail) && (error as? ReceiverError)?.httpStatus == 400
        }
    }
}
