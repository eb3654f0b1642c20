import Multipart

/// The header fields of resumable uploads over HTTP (`draft-ietf-httpbis-resumable-upload`, the
/// interop version Apple's URLSession and SwiftNIO's `NIOResumableUpload` speak), and their
/// values: Structured Field items (RFC 8941), an integer for `Upload-Offset`, a boolean
/// (`?1`/`?0`) for `Upload-Complete`. Parameters after an item (`;a=b`) are allowed and ignored.
public enum ResumableUploadFields {
    /// The draft's interop version Ferry speaks (draft 01).
    public static let interopVersion = 6
    /// Names the draft's interop version on every request and response.
    public static let interopVersionName = "Upload-Draft-Interop-Version"
    /// Whether the request's end is the upload's end (`?1`), on a creation or an append.
    public static let completeName = "Upload-Complete"
    /// How many bytes of the upload the server has, or where an append starts.
    public static let offsetName = "Upload-Offset"
    /// The informational status that says an upload can be resumed, its `Location` where.
    public static let resumptionSupportedStatus = 104
    /// The media type of an append's body.
    public static let appendContentType = "application/partial-upload"
    /// The files' bytes a job must be over to go as a resumable upload by default: a smaller
    /// body goes with its head in one write, and one whose answer is lost is settled by its
    /// `Idempotency-Key` rather than by a `HEAD` (``UploadJobSpec/sendsResumably``).
    public static let smallestResumableBody: Int64 = 64 * 1024

    /// The fields that make a request a resumable upload's creation: the interop version and
    /// `Upload-Complete: ?1` (the whole body follows).
    public static var creationFields: [HeaderField] {
        [HeaderField(name: interopVersionName, value: String(interopVersion)), HeaderField(name: completeName, value: "?1")]
    }

    /// An `sf-integer` item's value.
    ///
    /// - Parameter value: The field's value.
    /// - Returns: The integer, or nil when the value is not one (RFC 8941: at most 15 digits).
    public static func integer(_ value: String) -> Int64? {
        let item = bareItem(value)
        let digits = item.hasPrefix("-") ? item.dropFirst() : item[...]
        guard (1...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(item)
    }

    /// An `sf-boolean` item's value.
    ///
    /// - Parameter value: The field's value.
    /// - Returns: The boolean, or nil when the value is not `?0` or `?1`.
    public static func boolean(_ value: String) -> Bool? {
        switch bareItem(value) {
        case "?1": return true
        case "?0": return false
        default: return nil
        }
    }

    /// The item of a field value without its parameters and surrounding spaces.
    private static func bareItem(_ value: String) -> String {
        value.prefix { $0 != ";" }.trimming { $0 == " " || $0 == "\t" }
    }
}
