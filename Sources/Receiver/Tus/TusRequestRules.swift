import FoundationEssentials
import Glibc

/// The header rules of tus 1.0.0 that do not depend on an upload: the version, lengths and
/// offsets, the PATCH content type, dates and IDs. Pure functions, tested without a server.
enum TusRequestRules {
    /// The protocol version spoken, for `Tus-Resumable` and `Tus-Version`.
    static let version = "1.0.0"
    /// The extensions offered, for `Tus-Extension`.
    static let extensions = "creation,creation-with-upload,termination,expiration,checksum"
    /// The content type of a PATCH body.
    static let offsetStreamType = "application/offset+octet-stream"

    /// Checks `Tus-Resumable`.
    ///
    /// - Parameter value: The header, if sent.
    /// - Throws: ``ReceiverError/TusRefusalReason/unsupportedVersion(_:)`` unless it is `1.0.0`.
    static func checkVersion(_ value: String?) throws(ReceiverError) {
        guard value?.trimmingWhitespace() == version else {
            throw .tusRefused(reason: .unsupportedVersion(value))
        }
    }

    /// The `Upload-Length` of a creation.
    ///
    /// - Parameters:
    ///   - value: `Upload-Length`, if sent.
    ///   - deferLength: `Upload-Defer-Length`, if sent.
    ///   - maximum: `Tus-Max-Size`.
    /// - Returns: The length.
    /// - Throws: ``ReceiverError/tusRefused(reason:)``: deferred (400), missing or not a number
    ///   (400), above `maximum` (413).
    static func uploadLength(_ value: String?, deferLength: String?, maximum: Int64) throws(ReceiverError) -> Int64 {
        if value == nil, deferLength != nil { throw .tusRefused(reason: .deferredLengthUnsupported) }
        guard let value, let length = decimal(value) else { throw .tusRefused(reason: .invalidUploadLength(value)) }
        guard length <= maximum else { throw .tusRefused(reason: .uploadTooLarge(length: length, limit: maximum)) }
        return length
    }

    /// The `Upload-Offset` of a PATCH.
    ///
    /// - Parameter value: The header, if sent.
    /// - Returns: The offset.
    /// - Throws: ``ReceiverError/TusRefusalReason/invalidOffset(_:)`` when missing or not a number.
    static func offset(_ value: String?) throws(ReceiverError) -> Int64 {
        guard let value, let offset = decimal(value) else { throw .tusRefused(reason: .invalidOffset(value)) }
        return offset
    }

    /// Checks a PATCH's (or a creation-with-upload's) `Content-Type`.
    ///
    /// - Parameter value: The header, if sent.
    /// - Throws: ``ReceiverError/TusRefusalReason/unsupportedContentType(_:)`` unless it is
    ///   `application/offset+octet-stream` (parameters allowed, case ignored).
    static func checkOffsetStream(_ value: String?) throws(ReceiverError) {
        guard let value, HeaderValue(parsing: value).value.lowercased() == offsetStreamType else {
            throw .tusRefused(reason: .unsupportedContentType(value))
        }
    }

    /// A non-negative decimal number of bytes: digits only, no sign, no spaces (surrounding
    /// spaces aside), within `Int64`.
    ///
    /// - Parameter text: The header value.
    /// - Returns: The number, or `nil`.
    static func decimal(_ text: String) -> Int64? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(trimmed)
    }

    /// A date as HTTP writes it (RFC 9110 IMF-fixdate), for `Upload-Expires`:
    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    ///
    /// - Parameter date: The date.
    /// - Returns: The text.
    static func httpDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// A new upload ID: 128 random bits as 32 lowercase hex digits.
    ///
    /// - Parameter generator: The source of randomness (the system's CSPRNG by default).
    /// - Returns: The ID.
    static func newID(using generator: inout some RandomNumberGenerator) -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<32).map { _ in digits[Int(generator.next() & 0xF)] })
    }

    /// Whether `text` can be an upload ID (so a path parameter can never name another file).
    ///
    /// - Parameter text: The path component.
    /// - Returns: `true` for 32 lowercase hex digits.
    static func isValidID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
