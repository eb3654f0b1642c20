import Foundation
import NIOCore
@testable import Receiver
import Testing

/// Inputs `Fuzz/` found in the receiver, kept as regression tests.
///
/// - A byte of 0x80 or more in a part's header *name* made multipart-kit 4.7.1's parser index
///   its 128-entry table out of range: a trap that stopped the whole `ferry serve` process
///   (one request from anyone). Ferry's own `FormDataParser` has replaced it and rejects such a
///   name with a 400; it ends header lines at CR LF only (a lone LF stays in a value), as
///   multipart-kit did.
/// - `SafeFilename` searched for `/` and `\\` by Character: a separator followed by a
///   combining mark is another Character, so `a/\u{301}b` kept its `/` (a path into a
///   subdirectory, or from the root once the leading dots were dropped).
/// - `PartHeaders.decodeFormEscapes` looked for `%22` by Character: followed by a combining mark
///   the escape was left as it was.
@Suite("Receiver: fuzz findings")
struct FuzzFindingsTests {
    /// crash-494f754 of FuzzReceiverMultipart (its first byte, the chunk size, dropped): a lone
    /// LF in a header value, then a header name with 0x94 after the value's CR LF.
    static let bareLFThenNonASCIIName: [UInt8] = [
            0x2D, 0x2D, 0x66, 0x7A, 0x0D, 0x0A, 0x43, 0x6F, 0x6E, 0x74, 0x65, 0x6E, 0x74, 0x2D, 0x44, 0x69,
            0x73, 0x6F, 0x73, 0x69, 0x74, 0x69, 0x6F, 0x6E, 0x3A, 0x20, 0x66, 0x6F, 0x72, 0x6D, 0x2D, 0x2E,
            0x74, 0x78, 0x74, 0xDE, 0xF2, 0x0A, 0x43, 0x6F, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x70, 0x65, 0x3A, 0x20, 0x74, 0x65, 0x78, 0x74, 0x6A, 0x70, 0x04, 0x2F, 0x6C, 0x61, 0x69, 0x0A,
            0x0D, 0x0A, 0x6C, 0x65, 0x6C, 0x94, 0x90, 0xF2, 0xF5, 0xD2, 0xD2, 0x99, 0x88, 0x0D, 0x0A, 0x43,
            0x6F, 0x6E, 0x6E, 0x74, 0x65, 0x6E, 0x74, 0x2D, 0x44, 0x69, 0x73, 0x70, 0x6F, 0x73, 0x69, 0x74,
            0x69, 0x6F, 0x6E, 0x3A, 0x20, 0x66, 0x6F, 0x72, 0x6D, 0x2D, 0x64, 0x61, 0x74, 0x61, 0x3B, 0x6F,
            0x6E, 0x74, 0x65, 0x6E, 0x74, 0x2D, 0x44, 0x69, 0x73, 0x70, 0x6F, 0x73, 0x69, 0x74, 0x69, 0x6F,
            0x6E, 0x3A, 0x20, 0x66, 0x6F, 0x72, 0x6D, 0x2D, 0x64, 0x61, 0x74, 0x61, 0x3B, 0x43, 0x68, 0x61,
            0x72, 0x61, 0x63, 0x74, 0x65, 0x72, 0x74, 0x65, 0x22, 0x0D, 0x0A, 0x0D, 0x0A, 0x68, 0x69, 0x20,
            0x74, 0x68, 0x65, 0x72, 0x65, 0x0D, 0x0A, 0x2D, 0x2D, 0x66, 0x7A, 0x2D, 0x2D, 0x0D, 0x0A,
    ]

    static func send(_ body: [UInt8], boundary: String, port: Int) async throws -> RawHTTPConnection.Response? {
        let connection = try await RawHTTPConnection.connect(port: port)
        defer { connection.close() }
        let head = RawMultipart.head(length: body.count, contentType: "multipart/form-data; boundary=\(boundary)")
        try await connection.send(Array(head.utf8) + body)
        return try await connection.readResponse()
    }

    @Test("a part header name with bytes of 0x80 or more: 400, no file, and the server goes on")
    func nonASCIIHeaderName() async throws {
        try await ReceiverHarness.run { harness in
            let crash: [UInt8] = Array("--fz\r\n".utf8) + [0xA3] + Array("Content-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nabc\r\n--fz--\r\n".utf8)
            for body in [crash, Self.bareLFThenNonASCIIName] {
                let response = try #require(try await Self.send(body, boundary: "fz", port: harness.server.port))
                #expect(response.status == 400)
            }
            #expect(try harness.directory.uploadedNames() == [])
            let good = RawMultipart.body([.file("f", filename: "after.txt", Array("still here".utf8))])
            let response = try #require(try await Self.send(good, boundary: RawMultipart.boundary, port: harness.server.port))
            #expect(response.status == 200)
            #expect(try harness.directory.uploadedNames() == ["after.txt"])
        }
    }

    @Test("header lines end at CR LF only, and a name is checked byte by byte, not its value")
    func lineEndsAtCRLF() throws {
        var parser = FormDataParser(boundary: "b")
        parser.feed(ByteBuffer(string: "--b\r\nContent-Disposition: form-data; name=\"a\nX\"\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n"))
        #expect(try parser.next() == .partBegan(headers: [
            .init(name: "Content-Disposition", value: Array("form-data; name=\"a\nX\"".utf8)),
            .init(name: "Content-Type", value: Array("text/plain".utf8)),
        ]))

        var flagged = FormDataParser(boundary: "b")
        flagged.feed(ByteBuffer(bytes: Array("--b\r\nName: caf".utf8) + [0xE9] + Array("\r\nN".utf8) + [0xE9] + Array(": x\r\n".utf8)))
        #expect(throws: ReceiverError.requestRejected(reason: .malformedPartHeaders(detail: "a part header name is not ASCII"))) {
            try flagged.next()
        }
        var valueOnly = FormDataParser(boundary: "b")
        valueOnly.feed(ByteBuffer(bytes: Array("--b\r\nContent-Disposition: form-data; filename=\"caf".utf8) + [0xE9] + Array("\"\r\n\r\n".utf8)))
        #expect(try valueOnly.next() == .partBegan(headers: [
            .init(name: "Content-Disposition", value: Array("form-data; filename=\"caf".utf8) + [0xE9, 0x22]),
        ]))
    }

    @Test(
        "a separator or a dot followed by a combining mark is still one (crash-d771042 of FuzzReceiverHeaders)",
        arguments: [
            ("a/\u{301}b", "\u{301}b"),
            ("x\\\u{650}y", "\u{650}y"),
            ("../\u{301}passwd", "\u{301}passwd"),
            (".\u{301}hidden", "\u{301}hidden"),
            ("forn-data; n\"C4U\\\u{0650}\";form-daile\"; filename=\"a;b.tx\u{FFFD}.tt\"xN",
             "\u{0650}\";form-daile\"; filename=\"a;b.tx\u{FFFD}.tt\"xN"),
        ])
    func separatorsAreScalars(original: String, expected: String) {
        let safe = SafeFilename(original)
        #expect(safe.value.unicodeScalars.elementsEqual(expected.unicodeScalars), "\(safe.value.debugDescription)")
        #expect(!safe.value.utf8.contains(UInt8(ascii: "/")) && !safe.value.utf8.contains(UInt8(ascii: "\\")))
        #expect(safe.value.utf8.first != UInt8(ascii: "."))
    }

    @Test("a WHATWG escape followed by a combining mark is still decoded (crash-f275bee of FuzzReceiverHeaders)")
    func escapeBeforeCombiningMark() throws {
        #expect(PartHeaders.decodeFormEscapes("a%22\u{597}b").unicodeScalars.elementsEqual("a\"\u{597}b".unicodeScalars))
        #expect(PartHeaders.decodeFormEscapes("%0d\u{301}%0A").unicodeScalars.elementsEqual("\r\u{301}\n".unicodeScalars))
        #expect(PartHeaders.decodeFormEscapes("100%\u{301}").unicodeScalars.elementsEqual("100%\u{301}".unicodeScalars))
        let headers = try PartHeaders(headers: [(name: "Content-Disposition", value: "form-data; name=\"f\"; filename=\"q%22\u{597}.txt\"")])
        #expect(headers.filename?.unicodeScalars.elementsEqual("q\"\u{597}.txt".unicodeScalars) == true)
    }
}
