import FoundationEssentials
import Multipart
import JSON

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
    /// `true` when this is not the request's answer, which was lost, but a resumable upload's
    /// `HEAD` saying the server holds the whole upload: it arrived. Nil otherwise.
    public var answerWasLost: Bool?

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

    /// The reason the body gives, for a person: the `"error"`, `"message"`, `"detail"` or
    /// `"title"` string of a JSON object (as `ferry serve`, many APIs and RFC 9457 problem
    /// details answer), else the first lines of a text body (at most three, joined by spaces);
    /// at most 300 characters, control characters shown as `\xNN`; `nil` when the body is
    /// empty, HTML or XML, or its `Content-Type` is neither text nor JSON.
    public var reasonText: String? {
        if let type = value(forHeader: "Content-Type")?.lowercased() {
            let media = type.split(separator: ";").first.map { $0.trimmingWhitespaceAndNewlines() } ?? ""
            guard media.hasPrefix("text/") || media == "application/json" || media.hasSuffix("+json") else { return nil }
        }
        var text = bodyText.trimmingWhitespaceAndNewlines()
        if text.hasPrefix("{"), let object = try? JSONReader.read(body) {
            // A JSON answer speaks in one of these members, or says nothing for people.
            guard let message = ["error", "message", "detail", "title"].lazy.compactMap({ object[$0]?.stringValue }).first
            else { return nil }
            text = message
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespaceAndNewlines() }.filter { !$0.isEmpty }
        guard let first = lines.first, !first.hasPrefix("<") else { return nil }
        var shown = ""
        for scalar in lines.prefix(3).joined(separator: " ").unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                shown += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown.count > 300 ? String(shown.prefix(299)) + "…" : shown
    }

    /// The delay asked for by a `Retry-After` header.
    ///
    /// - Parameter now: The current wall-clock time, for the HTTP-date form.
    /// - Returns: The delay, or nil without a valid header.
    public func retryAfter(relativeTo now: Date) -> Duration? {
        value(forHeader: "Retry-After").flatMap { RetryAfter.delay(from: $0, now: now) }
    }
}
