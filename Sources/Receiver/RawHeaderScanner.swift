import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the raw bytes of every part header line of a `multipart/form-data` body, in order.
///
/// multipart-kit's parser hands header values over as UTF-8 text and gives an empty string
/// for any value that is not valid UTF-8, such as `filename="caf\xE9.txt"` from a client that
/// sends file names as the raw bytes they are (curl, `ferry send`). This scanner reads the same
/// body alongside it, finding part boundaries exactly as that parser does (the preamble may
/// skip the leading CRLF; a boundary line ends at once with CRLF, or `--` starts the
/// epilogue), and queues each header line's name and value bytes, so ``FormDataReader`` can
/// recover the value the parser could not decode.
///
/// Body bytes are skipped with `memchr` for the CR that starts every delimiter. Header lines
/// are kept up to ``maximumLineLength`` bytes (longer ones are cut; the parser's own limits
/// reject such a body anyway).
struct RawHeaderScanner {
    /// One header line: its name and its value (leading blanks and the line end removed).
    struct Line: Equatable {
        /// The field name bytes.
        var name: [UInt8]
        /// The value bytes, as sent.
        var value: [UInt8]
    }

    private enum State {
        /// Before the first boundary; `matched` delimiter bytes seen.
        case preamble(matched: Int)
        /// The rest of a boundary line, up to its LF.
        case boundaryLineEnd
        /// Reading the header lines of a part.
        case headerLines
        /// In a part's content; `matched` delimiter bytes seen.
        case body(matched: Int)
        /// Right after a delimiter inside the body: CR starts a part, `-` the epilogue.
        case afterDelimiter
        /// After the closing delimiter: nothing more to find.
        case epilogue
    }

    /// The longest header line kept.
    static let maximumLineLength = 64 * 1024

    private let delimiter: [UInt8]
    private var state = State.preamble(matched: 0)
    private var line: [UInt8] = []
    private var lines: [Line] = []
    private var nextLine = 0
    /// Whether the current header line's colon went by (its name has ended).
    private var nameEnded = false
    /// Whether the last header byte was a CR: only CR LF ends a header line, as in multipart-kit
    /// (a lone LF is part of the value there), so the lines and names found here are its own.
    private var afterCR = false
    /// Whether a header line's name (before its colon) had a byte of 0x80 or more: multipart-kit
    /// 4.7.1's parser indexes a 128-entry table with such a byte and traps (the whole server
    /// would stop), so the reader must reject the body before the parser sees it.
    private(set) var sawNonASCIIHeaderName = false

    /// Creates a scanner for a body with the given boundary.
    ///
    /// - Parameter boundary: The boundary from the request's `Content-Type`.
    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Reads the next chunk of the body and queues the header lines it completes.
    ///
    /// - Parameter chunk: The next bytes of the request body.
    mutating func scan(_ chunk: ByteBuffer) {
        chunk.withUnsafeReadableBytes { bytes in
            var index = 0
            while index < bytes.count {
                if case .body(matched: 0) = state {
                    let rest = bytes.count - index
                    guard let found = memchr(bytes.baseAddress! + index, Int32(delimiter[0]), rest) else { return }
                    index = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
                }
                consume(bytes[index])
                index += 1
            }
        }
    }

    /// The next header line in body order, or nil when none is queued.
    mutating func next() -> Line? {
        guard nextLine < lines.count else { return nil }
        defer {
            nextLine += 1
            if nextLine == lines.count {
                lines.removeAll(keepingCapacity: true)
                nextLine = 0
            }
        }
        return lines[nextLine]
    }

    private mutating func consume(_ byte: UInt8) {
        switch state {
        case let .preamble(matched):
            let now: Int
            if matched == 0, byte == delimiter[2] {
                now = 3  // as multipart-kit: the body may start with "--boundary"
            } else if byte == delimiter[matched] {
                now = matched + 1
            } else {
                now = matched > 0 && byte == delimiter[0] ? 1 : 0
            }
            state = now == delimiter.count ? .boundaryLineEnd : .preamble(matched: now)
        case .boundaryLineEnd:
            if byte == 0x0A { state = .headerLines }
        case .headerLines:
            let endsLine = byte == 0x0A && afterCR
            afterCR = byte == 0x0D
            guard endsLine else {
                if byte == 0x3A { nameEnded = true } else if byte >= 0x80, !nameEnded { sawNonASCIIHeaderName = true }
                if line.count < Self.maximumLineLength { line.append(byte) }
                return
            }
            nameEnded = false
            if line.last == 0x0D { line.removeLast() }
            if line.isEmpty {
                state = .body(matched: 0)
            } else {
                lines.append(Self.split(line))
                line.removeAll(keepingCapacity: true)
            }
        case let .body(matched):
            if byte == delimiter[matched] {
                state = matched + 1 == delimiter.count ? .afterDelimiter : .body(matched: matched + 1)
            } else {
                state = .body(matched: byte == delimiter[0] ? 1 : 0)
            }
        case .afterDelimiter:
            state = byte == 0x2D ? .epilogue : .boundaryLineEnd
        case .epilogue:
            break
        }
    }

    /// Splits `name: value` at the first colon, dropping the blanks that start the value.
    private static func split(_ line: [UInt8]) -> Line {
        guard let colon = line.firstIndex(of: 0x3A) else { return Line(name: line, value: []) }
        let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
        return Line(name: Array(line[..<colon]), value: Array(value))
    }
}
