import FoundationEssentials

/// What a tus upload's `.info` file in the staging folder holds, so an upload survives a
/// restart of the receiver: its size, how much arrived, its metadata and when it expires.
struct TusUploadInfo: Codable, Sendable, Hashable {
    /// The upload's ID (32 lowercase hex digits).
    var id: String
    /// `Upload-Length`: the size of the whole file.
    var length: Int64
    /// `Upload-Offset`: the bytes stored so far.
    var offset: Int64
    /// `Upload-Metadata` as the client sent it, if it did.
    var metadata: String?
    /// When the upload expires if nothing more arrives.
    var expiresAt: Date
    /// The stored file, once the upload is finished and moved into the upload directory.
    var file: UploadedFile?
}
