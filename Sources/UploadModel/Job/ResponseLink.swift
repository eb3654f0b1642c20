import JSON

/// The link a server's JSON answer gives to what was uploaded (a file host's `{"url": …}`): the
/// result people want, not just the status.
public enum ResponseLink {
    /// The top-level members looked at, in this order, when no pointer is given.
    public static let keys = ["url", "link", "location"]

    /// The link in a response.
    ///
    /// The body is read when it is JSON (``UploadResponse/jsonBody``). With a pointer, the string
    /// it names; without, the first of ``keys`` at the top level whose value is a non-empty string.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - pointer: Where the link is (`--response-field /data/url`); nil for ``keys``.
    /// - Returns: The link, or nil when the body is not JSON (or was cut short) or has none.
    public static func find(in response: UploadResponse, at pointer: JSONPointer? = nil) -> String? {
        guard let document = response.jsonBody else { return nil }
        let found = pointer.map { document.value(at: $0)?.stringValue } ?? keys.lazy.compactMap { document[$0]?.stringValue }.first { !$0.isEmpty }
        return found.flatMap { $0.isEmpty ? nil : $0 }
    }
}
