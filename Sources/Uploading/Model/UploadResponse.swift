import FoundationEssentials
import Multipart

/// What the server answered: status, headers and the start of the body.
public struct UploadResponse: Sendable, Hashable, Codable {
    /// How many body bytes a transport keeps: the first 64 KiB.
    public static let maximumCapturedBodyBytes = 64 * 1024

    /// The HTTP status code.
    public var status: Int
    /// The response headers, in order.
    public var headers: [HeaderField]
    /// The first `maximumCapturedBodyBytes` bytes of the body.
    public var body: [UInt8]
    /// Whether the body was longer than what `body` holds.
    public var isBodyTruncated: Bool
    /// The URLs the request was redirected to (`-L`, 307 and 308), in order: the last one
    /// answered. Empty when the job's own URL answered.
    public var redirects: [String] = []
    /// The offsets a resumable request (`--resumable`) went on from, after lost connections or an
    /// earlier run's end, as the server confirmed them, in order; nil when it was not resumed.
    public var resumedAt: [Int64]?

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The headers.
    ///   - body: The captured start of the body; longer input is cut to 64 KiB.
    ///   - isBodyTruncated: Whether the body was cut by the transport already.
    public init(status: Int, headers: [HeaderField] = [], body: [UInt8] = [], isBodyTruncated: Bool = false) {
        self.status = status
        self.headers = headers
        if body.count > Self.maximumCapturedBodyBytes {
            self.body = Array(body.prefix(Self.maximumCapturedBodyBytes))
            self.isBodyTruncated = true
        } else {
            self.body = body
            self.isBodyTruncated = isBodyTruncated
        }
    }

    /// Whether the status is in 200–299.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The first value of a header, by case-insensitive name.
    ///
    /// - Parameter name: The header name.
    /// - Returns: Its value, or nil.
    public func value(forHeader name: String) -> String? {
        headers.first { HTTPToken.namesEqual($0.name, name) }?.value
    }

    /// The captured body as UTF-8 text (invalid sequences replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The reason the body gives, for a person: the `"error"` or `"message"` string of a JSON
    /// object (as `ferry serve` and many APIs answer), else the body's first line of text; at
    /// most 300 characters, `nil` when there is none.
    public var reasonText: String? {
        var text = bodyText.trimmingWhitespaceAndNewlines()
        if let object = try? JSONReader.read(body), let message = (object["error"] ?? object["message"])?.stringValue {
            text = message
        }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !line.isEmpty, !line.hasPrefix("<") else { return nil }
        return line.count > 300 ? String(line.prefix(299)) + "…" : line
    }

    /// The delay asked for by a `Retry-After` header.
    ///
    /// - Parameter now: The current wall-clock time, for the HTTP-date form.
    /// - Returns: The delay, or nil without a valid header.
    public func retryAfter(relativeTo now: Date) -> Duration? {
        value(forHeader: "Retry-After").flatMap { RetryAfter.delay(from: $0, now: now) }
    }
}
