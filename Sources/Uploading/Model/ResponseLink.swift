import Foundation

/// The link a server's JSON answer gives to what was uploaded (a file host's `{"url": …}`): the
/// result people want, not just the status.
public enum ResponseLink {
    /// The top-level members looked at, in this order, when no pointer is given.
    public static let keys = ["url", "link", "location"]

    /// The link in a response.
    ///
    /// The body is read when its `Content-Type` is JSON (`application/json`, `…+json`) or
    /// absent. With a pointer, the string it names; without, the first of ``keys`` at the top
    /// level whose value is a non-empty string.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - pointer: Where the link is (`--response-field /data/url`); nil for ``keys``.
    /// - Returns: The link, or nil when the body is not JSON (or was cut short) or has none.
    public static func find(in response: UploadResponse, at pointer: JSONPointer? = nil) -> String? {
        guard !response.isBodyTruncated, isJSON(response.value(forHeader: "Content-Type")),
              let document = try? JSONReader.read(response.body) else { return nil }
        let found = pointer.map { document.value(at: $0)?.stringValue } ?? keys.lazy.compactMap { document[$0]?.stringValue }.first { !$0.isEmpty }
        return found.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether a `Content-Type` value names JSON (or is absent).
    private static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }
}
