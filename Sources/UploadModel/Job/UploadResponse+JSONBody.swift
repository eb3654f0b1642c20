import FoundationEssentials
import JSON

extension UploadResponse {
    /// The body read as JSON, when it is JSON: its `Content-Type` is `application/json` or
    /// `…+json` (or absent) and it was captured whole; nil otherwise.
    public var jsonBody: JSONValue? {
        guard !isBodyTruncated, Self.namesJSON(value(forHeader: "Content-Type")) else { return nil }
        return try? JSONReader.read(body)
    }

    /// Whether a `Content-Type` value names JSON (or is absent).
    private static func namesJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        // Most answers are not JSON (`text/plain`, `text/html`): refused without splitting,
        // trimming and lowercasing, which cost a percent of a small file's CPU in `ferry send --json`.
        guard contentType.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "j") }) else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingWhitespace().lowercased() } ?? ""
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }
}
