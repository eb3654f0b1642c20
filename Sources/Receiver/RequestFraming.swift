import HTTPTypes
import Multipart

/// What a request head says about its body, judged before anything reads a byte of it: a
/// `Content-Length` over the body limit (413), one that is not a number (400), or a transfer
/// coding other than `chunked` (501) is refused at once, whatever the route.
///
/// NIO's HTTP parser (llhttp) frames the body and has already refused with 400 the heads it
/// cannot frame: a `Content-Length` with a character other than a digit or above 2⁶⁴ − 1, two of
/// them, one beside `Transfer-Encoding`, a `Transfer-Encoding` whose last coding is not
/// `chunked`. What it lets through may still be a number no `Int64` holds (up to 2⁶⁴ − 1), so
/// lengths are compared as digit strings. The chunk sizes of a chunked body never leave the
/// parser (NIO drops them), so a chunked body is held to the limit by the bytes that arrive.
enum RequestFraming {
    /// Why a request head cannot be taken, if it cannot.
    ///
    /// - Parameters:
    ///   - fields: The request's header fields.
    ///   - maxBodySize: The body limit (`--max-body`).
    /// - Returns: The refusal to answer with, or `nil` when the body may be read.
    static func refusal(for fields: HTTPFields, maxBodySize: Int64) -> ReceiverError? {
        refusal(contentLength: fields[.contentLength], transferEncoding: fields[.transferEncoding], maxBodySize: maxBodySize)
    }

    /// Why a request head with these framing fields cannot be taken, if it cannot.
    ///
    /// - Parameters:
    ///   - contentLength: The `Content-Length`, if sent.
    ///   - transferEncoding: The `Transfer-Encoding` (several fields joined with commas), if sent.
    ///   - maxBodySize: The body limit (`--max-body`).
    /// - Returns: The refusal to answer with, or `nil` when the body may be read.
    static func refusal(contentLength: String?, transferEncoding: String?, maxBodySize: Int64) -> ReceiverError? {
        if let coding = transferEncoding {
            let trimmed = coding.trimmingWhitespace()
            guard trimmed.lowercased() == "chunked" else {
                return .requestRejected(reason: .unsupportedTransferCoding(trimmed))
            }
        }
        guard let length = contentLength else { return nil }
        let digits = length.trimmingWhitespace()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .requestRejected(reason: .invalidContentLength(length))
        }
        return exceeds(digits, maxBodySize) ? .requestRejected(reason: .bodyTooLarge(limit: maxBodySize)) : nil
    }

    /// Whether the head announces a body: a `Transfer-Encoding`, or a `Content-Length` other than 0.
    ///
    /// - Parameter fields: The request's header fields.
    /// - Returns: `true` when bytes may follow the head.
    static func announcesBody(_ fields: HTTPFields) -> Bool {
        if fields[.transferEncoding] != nil { return true }
        guard let length = fields[.contentLength] else { return false }
        return length.trimmingWhitespace().utf8.contains { $0 != UInt8(ascii: "0") }
    }

    /// Whether the decimal number `digits` (digits only, any number of them) is above `limit`.
    private static func exceeds(_ digits: String, _ limit: Int64) -> Bool {
        let significant = digits.utf8.drop { $0 == UInt8(ascii: "0") }
        let bound = String(limit).utf8
        if significant.count != bound.count { return significant.count > bound.count }
        return bound.lexicographicallyPrecedes(significant)
    }
}
