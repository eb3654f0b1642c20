@testable import Multipart
import NIOCore
@testable import Receiver
import FuzzSupport

/// One part's headers as the receiver reads them: `HeaderValue`, `PartHeaders` (WHATWG and
/// RFC 8187 decoding), `SafeFilename`, and `FormDataParser` on a body made of the input.
///
/// The input is split at its first NUL byte: the text before is a `Content-Disposition` value
/// (then also a whole header block), the bytes after are a filename for the client's encoder.
/// Checked beyond "no crash":
/// - a filename from `PartHeaders` becomes a `SafeFilename` (and `candidate(1...3)`) that is not
///   empty, not `.`/`..`, has no leading dot, no `/`, `\`, NUL or other control character, and
///   fits `maximumByteCount` (plus the `-N` suffix for candidates) and `NAME_MAX`;
/// - the client's escaping (`FieldEscaping`, as `ferry send` writes `filename="..."`) read back
///   by `HeaderValue` + `PartHeaders` gives the same filename, for filenames without `%` (WHATWG
///   escaping does not escape `%`, so `%22` is ambiguous by design) and without `\` (see below);
/// - `FormDataParser` reports at most as many header lines as the block has line ends, none
///   holding a CR LF (only CR LF ends a line) or a CR in its name, with no more than its limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let value = String(decoding: bytes[..<split], as: UTF8.self)

    let parsed = HeaderValue(parsing: value)
    _ = parsed.parameter("name")
    _ = HeaderValue.decodeExtendedValue(value)
    if let headers = try? PartHeaders(headers: [(name: "Content-Disposition", value: value)]),
       let filename = headers.filename {
        check(SafeFilename(filename), from: filename)
    }
    check(SafeFilename(value), from: value)

    // The client's escaping, read back by the receiver's parser.
    if split < bytes.count {
        let filename = String(decoding: bytes[(split + 1)...], as: UTF8.self)
        if !filename.contains("%"), !filename.contains("\\"), let escaped = try? FieldEscaping.escapeFilename(filename) {
            let header = "form-data; name=\"file\"; filename=\"\(escaped)\""
            let read = try? PartHeaders(headers: [(name: "Content-Disposition", value: header)])
            require(read?.filename == filename,
                         "filename \(filename.debugDescription) sent as \(header.debugDescription) read as \(String(describing: read?.filename?.debugDescription))")
        }
    }

    // The parser on a one-part body whose header block is the input (bytes before the NUL).
    var parser = FormDataParser(boundary: "fz")
    var body = ByteBuffer(string: "--fz\r\n")
    body.writeBytes(bytes[..<split])
    body.writeString("\r\n\r\ncontent\r\n--fz--\r\n")
    parser.feed(body)
    if case .partBegan(let headers)? = try? parser.next() {
        require(headers.count <= FormDataParser.maximumHeaderCount, "\(headers.count) headers")
        require(headers.count <= bytes[..<split].count(where: { $0 == 0x0A }) + 1, "more lines than the block has")
        for header in headers {
            require(header.name.utf8.count + header.value.count <= FormDataParser.maximumUnreportedBytes, "line longer than the limit")
            // Only CR LF ends a line: a lone LF stays in a value, a CR is in no name or value.
            require(!header.value.contains(0x0D) && !header.name.utf8.contains(0x0D) && !header.name.isEmpty, "a header line with CR")
        }
    }
    return 0
}

private func check(_ safe: SafeFilename, from original: String) {
    for attempt in 0...3 {
        let name = safe.candidate(attempt)
        let limit = SafeFilename.maximumByteCount + (attempt == 0 ? 0 : 2)
        require(!name.isEmpty && name != "." && name != ".." && name.utf8.first != UInt8(ascii: "."),
                     "\(original.debugDescription) -> \(name.debugDescription)")
        require(name.utf8.count <= limit && name.utf8.count <= 255,
                     "\(original.debugDescription) -> \(name.utf8.count) bytes")
        require(!name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                     "\(original.debugDescription) -> \(name.debugDescription)")
    }
}

// SwiftPM renames this executable's `main` to `FuzzReceiverHeaders_main`: libFuzzer's driver runs from here.
@_cdecl("FuzzReceiverHeaders_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { fuzz($0, $1) }
}
