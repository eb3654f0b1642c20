import UploadModel

/// A job's last error as its journal row stores it in `last_error_reason`: the typed
/// `UploadError` in a versioned envelope, so a restored job keeps whether it is retryable and
/// whether its file changed.
///
/// Version 1 is `{"version":1,"error":E}` where `E` is `UploadError`'s synthesized `Codable`
/// shape: one key per case, its labelled payload inside (`{"serverRejected":{"status":503}}`,
/// `{"transferFailed":{"reason":{"stoppedAfterSending":{}}}}`). A row written by a later version
/// (another number, or a case this one does not know) decodes with no error, and the journal
/// falls back to the description in `last_error`, as for rows written before errors were typed.
struct JournaledError: Codable, Equatable {
    /// The shape this version writes.
    static let currentVersion = 1

    /// The shape's version.
    let version: Int
    /// The error, when this version can read it.
    let error: UploadError?

    private enum CodingKeys: String, CodingKey {
        case version
        case error
    }

    /// Wraps an error in the current shape.
    ///
    /// - Parameter error: The error.
    init(_ error: UploadError) {
        version = Self.currentVersion
        self.error = error
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        error = version == Self.currentVersion ? try? container.decode(UploadError.self, forKey: .error) : nil
    }
}
