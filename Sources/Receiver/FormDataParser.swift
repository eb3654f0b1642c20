import NIOCore
import Glibc

/// A streaming `multipart/form-data` parser: fed the body in chunks of any size, it reports
/// each part's header lines, its content and its end, in body order. Pure: no I/O.
///
/// The rules:
/// - The preamble ends at the first delimiter, `CR LF --boundary`; the body may also open with
///   `--boundary` itself. After that first delimiter comes CR LF (no closing `--`, no blanks).
/// - Header lines end with CR LF; a lone LF is kept in a value and anywhere else it is a syntax
///   error, so a body with LF-only line ends is rejected. A name is an RFC 7230 token followed
///   by `:`; blanks (SP, HT) that start a value are dropped, the value's other bytes are kept as
///   sent (any byte but CR). A blank line ends the block.
/// - Content runs to the next delimiter; the delimiter is followed by CR LF (another part) or by
///   `--` (the closing delimiter, both dashes), then an epilogue that
///   is ignored. Anything else after a delimiter is a syntax error.
/// - A body that ends before its closing delimiter is incomplete (see ``finish()``).
/// - Limits: at most ``maximumUnreportedBytes`` of preamble,
///   of one part's header block and of epilogue; at most ``maximumHeaderCount`` header lines in a
///   part.
///
/// Content is found with `memchr` for the CR that starts every delimiter, and handed over as
/// slices of the fed chunks (no copy); only header lines are read byte by byte.
///
/// Use: ``feed(_:)`` a chunk, call ``next()`` until it returns `nil`, feed the next chunk; at the
/// end of the body, ``finish()``. After a thrown error the parser **must not** be used again.
struct FormDataParser {
    /// What the parser found, in body order.
    enum Event: Equatable {
        /// A part's header block ended: its header lines, in order.
        case partBegan(headers: [Header])
        /// The next bytes of the current part's content. A part's content is all of its
        /// `content` events joined; how it is split depends on the chunks.
        case content(ByteBuffer)
        /// The current part ended: its delimiter was found.
        case partEnded
    }

    /// One part header line.
    struct Header: Equatable, Sendable {
        /// The field name, an RFC 7230 token (ASCII), as sent.
        var name: String
        /// The value's bytes as sent (not necessarily UTF-8), leading blanks removed.
        var value: [UInt8]
    }

    private enum State {
        /// Before the first delimiter; `matched` bytes of it seen, starting at 2 (the body may
        /// open with `--boundary`: a delimiter whose CR LF is left out).
        case preamble(matched: Int)
        /// Right after a delimiter: CR opens a part; `-` starts the closing delimiter (unless
        /// this is the first delimiter, `opening`).
        case afterDelimiter(opening: Bool)
        /// After the CR that follows a delimiter: LF must come.
        case delimiterLineEnd
        /// Reading a part's header lines.
        case headers(HeaderPosition)
        /// In a part's content; `matched` bytes of a delimiter ended the previous chunk.
        case content(matched: Int)
        /// After the first `-` of a closing delimiter.
        case closing
        /// After the closing delimiter: nothing more to report.
        case epilogue
    }

    /// Where in a header line the parser is.
    private enum HeaderPosition {
        /// In the name (``name``), before its colon.
        case name
        /// In the value (``value``).
        case value
        /// After a header line's CR: LF must come.
        case headerLineEnd
        /// After the CR of the blank line that ends the block: LF must come.
        case blockEnd
    }

    /// What the search for the next delimiter found.
    private enum Search {
        /// Bytes before the delimiter (or all the bytes there are, when none is in sight).
        case data(ByteBuffer)
        /// The whole delimiter (read).
        case delimiter
        /// The fed bytes are used up (they may end with part of a delimiter).
        case needMore
    }

    /// The most bytes of preamble, of one part's header block or of epilogue.
    static let maximumUnreportedBytes = 64 * 1024
    /// The most header lines in one part.
    static let maximumHeaderCount = 64

    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let hyphen = UInt8(ascii: "-")
    /// The `tchar`s that are neither digits nor letters.
    private static let tokenSymbols = Array("!#$%&'*+-.^_`|~".utf8)

    /// `CR LF -- boundary`. Its CR is its only one: a boundary comes from an HTTP field value,
    /// which cannot hold a CR.
    private let delimiter: [UInt8]
    private var state = State.preamble(matched: 2)
    /// The fed bytes not read yet.
    private var buffer = ByteBuffer()
    /// Bytes of the current preamble, header block or epilogue.
    private var unreportedBytes = 0
    private var headers: [Header] = []
    private var name: [UInt8] = []
    private var value: [UInt8] = []

    /// Creates a parser for a body with the given boundary.
    ///
    /// - Parameter boundary: The boundary from the request's `Content-Type` (not empty).
    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Hands the parser the next chunk of the body.
    ///
    /// The events of the previous chunk **must** all have been taken (``next()`` returned `nil`).
    /// - Parameter chunk: The next bytes of the body.
    mutating func feed(_ chunk: ByteBuffer) {
        precondition(buffer.readableBytes == 0, "feed(_:) before next() returned nil")
        buffer = chunk
    }

    /// The next event in the fed bytes.
    ///
    /// - Returns: The event, or `nil` when the fed bytes are used up.
    /// - Throws: ``ReceiverError/requestRejected(reason:)`` with `malformedBody` for a syntax
    ///   error and `malformedPartHeaders` for a header name that is not ASCII or a limit exceeded.
    mutating func next() throws(ReceiverError) -> Event? {
        while buffer.readableBytes > 0 {
            switch state {
            case .preamble(var matched):
                let found = search(matched: &matched)
                state = .preamble(matched: matched)
                switch found {
                case .data(let skipped): try countUnreported(skipped.readableBytes, in: "preamble")
                case .delimiter: state = .afterDelimiter(opening: true)
                case .needMore: return nil
                }
            case .afterDelimiter(let opening):
                switch buffer.readInteger(as: UInt8.self) {
                case Self.carriageReturn: state = .delimiterLineEnd
                case Self.hyphen where !opening: state = .closing
                default: throw Self.syntaxError("a boundary is followed by neither CR LF nor \"--\"")
                }
            case .delimiterLineEnd:
                guard buffer.readInteger(as: UInt8.self) == Self.lineFeed else {
                    throw Self.syntaxError("a boundary line does not end with CR LF")
                }
                unreportedBytes = 0
                state = .headers(.name)
            case .headers(let position):
                if let event = try readHeaders(at: position) { return event }
            case .content(var matched):
                let found = search(matched: &matched)
                state = .content(matched: matched)
                switch found {
                case .data(let content): return .content(content)
                case .delimiter:
                    state = .afterDelimiter(opening: false)
                    return .partEnded
                case .needMore: return nil
                }
            case .closing:
                guard buffer.readInteger(as: UInt8.self) == Self.hyphen else {
                    throw Self.syntaxError("a boundary is followed by a single \"-\"")
                }
                unreportedBytes = 0
                state = .epilogue
            case .epilogue:
                let count = buffer.readableBytes
                buffer.moveReaderIndex(forwardBy: count)
                try countUnreported(count, in: "epilogue")
            }
        }
        return nil
    }

    /// Checks that the body, now at its end, was complete.
    ///
    /// - Throws: ``ReceiverError/requestRejected(reason:)`` with `missingClosingBoundary` unless
    ///   the closing delimiter was read.
    func finish() throws(ReceiverError) {
        guard case .epilogue = state else { throw .requestRejected(reason: .missingClosingBoundary) }
    }

    /// Reads header bytes until the block ends or the fed bytes run out.
    private mutating func readHeaders(at start: HeaderPosition) throws(ReceiverError) -> Event? {
        var position = start
        while let byte = buffer.readInteger(as: UInt8.self) {
            try countUnreported(1, in: "part headers")
            switch position {
            case .name:
                if byte == UInt8(ascii: ":"), !name.isEmpty {
                    position = .value
                } else if byte == Self.carriageReturn, name.isEmpty {
                    position = .blockEnd
                } else if Self.isTokenByte(byte) {
                    name.append(byte)
                } else if byte >= 0x80 {
                    throw .requestRejected(reason: .malformedPartHeaders(detail: "a part header name is not ASCII"))
                } else {
                    throw Self.syntaxError("a part header line has no name or a byte a name cannot hold")
                }
            case .value:
                if byte == Self.carriageReturn {
                    position = .headerLineEnd
                } else if !(value.isEmpty && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t"))) {
                    value.append(byte)
                }
            case .headerLineEnd:
                guard byte == Self.lineFeed else { throw Self.syntaxError("a part header line does not end with CR LF") }
                headers.append(Header(name: String(decoding: name, as: UTF8.self), value: value))
                if headers.count > Self.maximumHeaderCount {
                    throw .requestRejected(
                        reason: .malformedPartHeaders(detail: "a part has more than \(Self.maximumHeaderCount) headers"))
                }
                name.removeAll(keepingCapacity: true)
                value = []
                position = .name
            case .blockEnd:
                guard byte == Self.lineFeed else { throw Self.syntaxError("a part's header block does not end with CR LF") }
                let block = headers
                headers = []
                name.removeAll(keepingCapacity: true)
                state = .content(matched: 0)
                return .partBegan(headers: block)
            }
        }
        state = .headers(position)
        return nil
    }

    /// Reads up to the next delimiter.
    ///
    /// - Parameter matched: How many bytes of a delimiter ended the previous chunk; updated.
    private mutating func search(matched: inout Int) -> Search {
        if matched > 0 {
            let wanted = delimiter.count - matched
            let available = min(wanted, buffer.readableBytes)
            let continues = buffer.withUnsafeReadableBytes { bytes in
                bytes.prefix(available).elementsEqual(delimiter[matched..<(matched + available)])
            }
            guard continues else {
                // Those bytes were data after all; the fed bytes are searched from their start.
                let carried = ByteBuffer(bytes: delimiter[..<matched])
                matched = 0
                return .data(carried)
            }
            buffer.moveReaderIndex(forwardBy: available)
            matched += available
            guard matched == delimiter.count else { return .needMore }
            matched = 0
            return .delimiter
        }
        let offset = delimiterOffset()
        if offset > 0 {
            return .data(buffer.readSlice(length: offset)!)
        }
        // A delimiter, whole or cut off by the end of the fed bytes, starts here.
        let available = min(delimiter.count, buffer.readableBytes)
        buffer.moveReaderIndex(forwardBy: available)
        guard available == delimiter.count else {
            matched = available
            return .needMore
        }
        return .delimiter
    }

    /// The offset in the unread bytes of the first delimiter, whole or cut off by their end;
    /// their count when there is none.
    private func delimiterOffset() -> Int {
        buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var from = 0
            while from < bytes.count, let found = memchr(base + from, Int32(Self.carriageReturn), bytes.count - from) {
                let offset = base.distance(to: UnsafeRawPointer(found))
                let length = min(delimiter.count, bytes.count - offset)
                let matches = delimiter.withUnsafeBytes { memcmp(base + offset, $0.baseAddress!, length) == 0 }
                if matches { return offset }
                from = offset + 1
            }
            return bytes.count
        }
    }

    private mutating func countUnreported(_ count: Int, in section: String) throws(ReceiverError) {
        unreportedBytes += count
        if unreportedBytes > Self.maximumUnreportedBytes {
            throw .requestRejected(
                reason: .malformedPartHeaders(detail: "more than \(Self.maximumUnreportedBytes) bytes of \(section)"))
        }
    }

    /// Whether `byte` may be part of a header name: an RFC 7230 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        default:
            tokenSymbols.contains(byte)
        }
    }

    private static func syntaxError(_ detail: String) -> ReceiverError {
        .requestRejected(reason: .malformedBody(detail: "multipart syntax error: \(detail)"))
    }
}
