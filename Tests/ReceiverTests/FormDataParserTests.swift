import NIOCore
@testable import Receiver
import Testing

/// `FormDataParser` without I/O: what it reports for a corpus of bodies, that no way of cutting a
/// body into chunks changes that, and how it rejects malformed bodies.
@Suite("Form-data parser")
struct FormDataParserTests {
    static let boundary = "b0undary"

    /// An event with its content as bytes, so results from different chunkings compare equal.
    enum Seen: Equatable, CustomStringConvertible {
        case began([FormDataParser.Header])
        case content([UInt8])
        case ended

        var description: String {
            switch self {
            case .began(let headers): "began(\(headers.map { "\($0.name)=\(String(decoding: $0.value, as: UTF8.self))" }))"
            case .content(let bytes): "content(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
            case .ended: "ended"
            }
        }
    }

    /// What a whole body gave: its events (adjacent content joined), then `finish()`'s verdict,
    /// or the error that stopped it.
    struct Outcome: Equatable {
        var events: [Seen] = []
        var error: ReceiverError?
    }

    /// Parses `body` fed in chunks that end at `cuts` (offsets into the body).
    static func parse(_ body: [UInt8], cuts: [Int], boundary: String = boundary) -> Outcome {
        var parser = FormDataParser(boundary: boundary)
        var outcome = Outcome()
        var start = 0
        do throws(ReceiverError) {
            for end in cuts + [body.count] where end >= start {
                parser.feed(ByteBuffer(bytes: body[start..<end]))
                start = end
                while let event = try parser.next() {
                    switch event {
                    case .partBegan(let headers): outcome.events.append(.began(headers))
                    case .content(let bytes):
                        #expect(bytes.readableBytes > 0, "an empty content event")
                        if case .content(let before) = outcome.events.last {
                            outcome.events[outcome.events.count - 1] = .content(before + Array(bytes.readableBytesView))
                        } else {
                            outcome.events.append(.content(Array(bytes.readableBytesView)))
                        }
                    case .partEnded: outcome.events.append(.ended)
                    }
                }
            }
            try parser.finish()
        } catch {
            outcome.error = error
        }
        return outcome
    }

    /// Cuts every `size` bytes.
    static func cuts(every size: Int, in count: Int) -> [Int] {
        Array(stride(from: size, to: count, by: size))
    }

    static func header(_ name: String, _ value: String) -> FormDataParser.Header {
        FormDataParser.Header(name: name, value: Array(value.utf8))
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let disposition = "Content-Disposition: form-data; name="

    /// Bodies with everything the parser must get right; the expected events of the first few are
    /// spelled out in `knownEvents`.
    static let corpus: [[UInt8]] = [
        // Preamble, a field, a file with a type, epilogue.
        bytes("preamble\r\n--b0undary\r\n\(disposition)\"a\"\r\n\r\nvalue\r\n--b0undary\r\n\(disposition)\"f\"; filename=\"x.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nfile\r\ncontent\r\n--b0undary--\r\nepilogue\r\n--b0undary\r\n"),
        // Opens with the boundary; an empty part; blanks before values kept out; a lone LF kept.
        bytes("--b0undary\r\n\(disposition)\"e\"\r\n\r\n\r\n--b0undary\r\nX-A:\t  v a\nl \r\n\r\nz\r\n--b0undary--"),
        // Content full of things that are almost a delimiter.
        bytes("--b0undary\r\n\(disposition)\"n\"\r\n\r\n\r\r\n--b0undar\r\n-\r\n--\r--b0undary\n--b0undary\r\r\n--b0undary--\r\n"),
        // Content that is only CRs, then a part whose content ends with CR.
        bytes("--b0undary\r\n\(disposition)\"r\"\r\n\r\n\r\r\r\r\n--b0undary\r\n\(disposition)\"s\"\r\n\r\nx\r\r\n--b0undary--"),
        // A header value that is not UTF-8.
        bytes("--b0undary\r\n\(disposition)\"f\"; filename=\"caf") + [0xE9] + bytes(".txt\"\r\n\r\n\u{1}\u{2}\r\n--b0undary--\r\n"),
        // A preamble with a boundary that is not at a line start, and a delimiter split by a CR.
        bytes("x--b0undary\r\n\r\r\n--b0undary\r\n\(disposition)\"p\"\r\n\r\n--b0undary\r\n--b0undary--"),
        // Random content (every byte value) in two files.
        bytes("--b0undary\r\n\(disposition)\"f\"; filename=\"1\"\r\n\r\n") + RandomBytes.make(700, seed: 3)
            + bytes("\r\n--b0undary\r\n\(disposition)\"g\"; filename=\"2\"\r\n\r\n") + RandomBytes.make(300, seed: 4)
            + bytes("\r\n--b0undary--\r\n"),
    ]

    static var knownEvents: [[Seen]] {
        [
            [
                .began([header("Content-Disposition", "form-data; name=\"a\"")]), .content(bytes("value")), .ended,
                .began([header("Content-Disposition", "form-data; name=\"f\"; filename=\"x.txt\""), header("Content-Type", "text/plain")]),
                .content(bytes("file\r\ncontent")), .ended,
            ],
            [
                .began([header("Content-Disposition", "form-data; name=\"e\"")]), .ended,
                .began([header("X-A", "v a\nl ")]), .content(bytes("z")), .ended,
            ],
            [
                .began([header("Content-Disposition", "form-data; name=\"n\"")]),
                .content(bytes("\r\r\n--b0undar\r\n-\r\n--\r--b0undary\n--b0undary\r")), .ended,
            ],
            [
                .began([header("Content-Disposition", "form-data; name=\"r\"")]), .content(bytes("\r\r\r")), .ended,
                .began([header("Content-Disposition", "form-data; name=\"s\"")]), .content(bytes("x\r")), .ended,
            ],
            [
                .began([FormDataParser.Header(name: "Content-Disposition",
                                              value: bytes("form-data; name=\"f\"; filename=\"caf") + [0xE9] + bytes(".txt\""))]),
                .content([1, 2]), .ended,
            ],
            [
                .began([header("Content-Disposition", "form-data; name=\"p\"")]), .content(bytes("--b0undary")), .ended,
            ],
        ]
    }

    @Test("known bodies give the events they hold", arguments: zip(corpus.indices, knownEvents))
    func knownBodies(index: Int, expected: [Seen]) {
        #expect(Self.parse(Self.corpus[index], cuts: []) == Outcome(events: expected))
    }

    @Test("random content in files comes back whole")
    func randomContent() {
        let outcome = Self.parse(Self.corpus[6], cuts: [])
        #expect(outcome.error == nil)
        #expect(outcome.events.count == 6)
        #expect(outcome.events[1] == .content(RandomBytes.make(700, seed: 3)))
        #expect(outcome.events[4] == .content(RandomBytes.make(300, seed: 4)))
    }

    @Test("a body cut anywhere, in 1-byte, 2-byte, 3-byte and random chunks gives the same events",
          arguments: corpus.indices)
    func everySplit(index: Int) {
        let body = Self.corpus[index]
        let whole = Self.parse(body, cuts: [])
        #expect(whole.error == nil)
        for cut in 0...body.count {
            #expect(Self.parse(body, cuts: [cut]) == whole, "cut at \(cut)")
        }
        for size in 1...3 {
            #expect(Self.parse(body, cuts: Self.cuts(every: size, in: body.count)) == whole, "chunks of \(size)")
        }
        var random = SplitMix64(seed: UInt64(index))
        for _ in 0..<50 {
            var cuts: [Int] = []
            var offset = 0
            while offset < body.count {
                offset += Int.random(in: 1...40, using: &random)
                cuts.append(offset)
            }
            #expect(Self.parse(body, cuts: cuts.filter { $0 < body.count }) == whole, "cuts \(cuts)")
        }
    }

    static let syntax = "malformedBody"
    static let partHeaders = "malformedPartHeaders"
    static let incomplete = "missingClosingBoundary"

    /// Malformed bodies and the reason each is rejected with (by case name).
    static let malformed: [(String, [UInt8], String)] = [
        ("no closing boundary", bytes("--b0undary\r\n\(disposition)\"a\"\r\n\r\nvalue\r\n"), incomplete),
        ("cut after the delimiter", bytes("--b0undary\r\n\(disposition)\"a\"\r\n\r\nvalue\r\n--b0undary"), incomplete),
        ("cut in the headers", bytes("--b0undary\r\n\(disposition)\"a\"\r\n"), incomplete),
        ("no boundary at all", bytes("this is not multipart"), incomplete),
        ("empty", [], incomplete),
        ("the boundary followed by other text inside content",
         bytes("--b0undary\r\n\(disposition)\"a\"\r\n\r\nx\r\n--b0undaryX\r\n--b0undary--"), syntax),
        ("a single hyphen after the last delimiter", bytes("--b0undary\r\n\(disposition)\"a\"\r\n\r\nx\r\n--b0undary-\r\n"), syntax),
        ("blanks after a boundary", bytes("--b0undary \r\n\(disposition)\"a\"\r\n\r\nx\r\n--b0undary--"), syntax),
        ("the closing delimiter first", bytes("--b0undary--\r\n"), syntax),
        ("LF-only line ends", bytes("--b0undary\n\(disposition)\"a\"\n\nx\n--b0undary--\n"), syntax),
        // The LF stay in the value; the CR LF before the delimiter ends the line, and "--b0undary--" is no name.
        ("LF-only line ends in the headers", bytes("--b0undary\r\n\(disposition)\"a\"\n\nx\r\n--b0undary--\r\n"), syntax),
        ("a header line ending in CR only", bytes("--b0undary\r\n\(disposition)\"a\"\rX: y\r\n\r\nx\r\n--b0undary--"), syntax),
        ("a header without a colon", bytes("--b0undary\r\nContent-Disposition form-data\r\n\r\nx\r\n--b0undary--"), syntax),
        ("a space in a header name", bytes("--b0undary\r\nBad Header: x\r\n\r\nx\r\n--b0undary--"), syntax),
        ("an empty header name", bytes("--b0undary\r\n: x\r\n\r\nx\r\n--b0undary--"), syntax),
        ("a header name byte of 0x80 or more", bytes("--b0undary\r\nN") + [0xE9] + bytes(": x\r\n\r\nx\r\n--b0undary--"), partHeaders),
        ("a header line of 64 KiB", bytes("--b0undary\r\nX: " + String(repeating: "v", count: 64 * 1024) + "\r\n\r\n--b0undary--"), partHeaders),
        ("65 headers", bytes("--b0undary\r\n" + String(repeating: "X: y\r\n", count: 65) + "\r\n\r\n--b0undary--"), partHeaders),
        ("a preamble of 64 KiB", bytes(String(repeating: "p", count: 64 * 1024 + 1) + "\r\n--b0undary\r\n"), partHeaders),
        ("an epilogue of 64 KiB",
         bytes("--b0undary\r\n\(disposition)\"a\"\r\n\r\nx\r\n--b0undary--" + String(repeating: "e", count: 64 * 1024 + 1)), partHeaders),
    ]

    @Test("malformed bodies are rejected, for the same reason however they are cut", arguments: malformed)
    func malformedBodies(name: String, body: [UInt8], reason: String) throws {
        let whole = Self.parse(body, cuts: [])
        let error = try #require(whole.error, "\(name)")
        guard case .requestRejected(let rejection) = error else {
            Issue.record("\(name): \(error)")
            return
        }
        #expect(String(describing: rejection).hasPrefix(reason), "\(name): \(rejection)")
        let sizes = body.count > 1000 ? [997, 4096] : [1, 2, 7]
        for size in sizes {
            #expect(Self.parse(body, cuts: Self.cuts(every: size, in: body.count)).error == error, "\(name), chunks of \(size)")
        }
    }

    @Test("at the limits: 64 headers and a header block of 64 KiB are accepted")
    func atTheLimits() {
        let many = Self.bytes("--b0undary\r\n" + String(repeating: "X: y\r\n", count: 64) + "\r\n\r\n--b0undary--")
        #expect(Self.parse(many, cuts: []).error == nil)
        let line = "X: " + String(repeating: "v", count: 64 * 1024 - 7) + "\r\n"  // with the blank line: 64 KiB
        #expect(Self.parse(Self.bytes("--b0undary\r\n\(line)\r\n\r\n--b0undary--"), cuts: [100]).error == nil)
    }

    @Test("the crash input of multipart-kit (a lone LF, then a header name with 0x94) is rejected as not ASCII")
    func fuzzCrashInput() {
        let outcome = Self.parse(FuzzFindingsTests.bareLFThenNonASCIIName, cuts: [], boundary: "fz")
        #expect(outcome.error == .requestRejected(reason: .malformedPartHeaders(detail: "a part header name is not ASCII")))
    }

    @Test("content is handed over as slices: one event for a chunk with no CR")
    func contentIsOneSlice() throws {
        var parser = FormDataParser(boundary: Self.boundary)
        parser.feed(ByteBuffer(bytes: Self.bytes("--b0undary\r\n\(Self.disposition)\"f\"\r\n\r\n")))
        #expect(try parser.next() == .partBegan(headers: [Self.header("Content-Disposition", "form-data; name=\"f\"")]))
        #expect(try parser.next() == nil)
        let content = RandomBytes.make(100_000, seed: 9).map { $0 == 0x0D ? 0x0A : $0 }
        parser.feed(ByteBuffer(bytes: content))
        #expect(try parser.next() == .content(ByteBuffer(bytes: content)))
        #expect(try parser.next() == nil)
        #expect(throws: ReceiverError.requestRejected(reason: .missingClosingBoundary)) { try parser.finish() }
    }
}
