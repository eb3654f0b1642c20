import FileSystem
import Multipart
import UploadModel

/// What one tus upload sends: the file, where uploads are created, the metadata, the chunk
/// size, and where an earlier attempt's upload stands, if it has one.
public struct TusUploadPlan: Sendable, Hashable, Codable {
    /// The first chunk's size when chunks follow the link (``TusChunkSizing``): 4 MiB. A chunk is
    /// one `PATCH`; a chunk cut off costs at most its own bytes again on a server that drops
    /// partial chunks (`ferry serve` and tusd keep them).
    public static let defaultChunkSize: Int64 = 4 * 1024 * 1024

    /// The creation URL (`--url`), answered `OPTIONS` and `POST`.
    public var creationURL: UploadTarget
    /// The file, as it was when the job was queued (its stamp decides whether it changed).
    public var file: FileSnapshot
    /// The `Upload-Metadata` header value (`TusMetadata.header`).
    public var metadata: String
    /// The most bytes one `PATCH` (or the creation `POST`) carries, or the first chunk's when
    /// ``chunkSizeFollowsLink``; at least 1.
    public var chunkSize: Int64
    /// Whether chunks grow and shrink with what the link moves (``TusChunkSizing``), as they do
    /// unless a chunk size was given.
    public var chunkSizeFollowsLink: Bool
    /// Whether each `PATCH` carries an `Upload-Checksum` where the server offers checksums.
    public var sendsChecksums: Bool
    /// Whether the creation `POST` carries the first chunk where the server offers
    /// `creation-with-upload` (``TusJobOptions/sendsDataInCreation``).
    public var sendsDataInCreation: Bool
    /// The upload URL an earlier attempt or run created, which is asked for its offset first.
    public var uploadURL: UploadTarget?
    /// The notes of earlier attempts on `uploadURL`, oldest first (kept in each checkpoint).
    public var earlierNotes: [TusNote]

    /// Creates a plan.
    ///
    /// - Parameters:
    ///   - creationURL: Where uploads are created.
    ///   - file: The file.
    ///   - metadata: The `Upload-Metadata` value.
    ///   - chunkSize: The chunk size (the first, if it follows the link); at least 1.
    ///   - chunkSizeFollowsLink: Whether chunks are sized to the link.
    ///   - sendsChecksums: Whether chunks carry checksums where the server offers them.
    ///   - sendsDataInCreation: Whether the creation `POST` carries the first chunk.
    ///   - uploadURL: The upload an earlier attempt created, if any.
    ///   - earlierNotes: The notes of earlier attempts.
    public init(creationURL: UploadTarget, file: FileSnapshot, metadata: String,
                chunkSize: Int64 = TusUploadPlan.defaultChunkSize, chunkSizeFollowsLink: Bool = false,
                sendsChecksums: Bool = true, sendsDataInCreation: Bool = false, uploadURL: UploadTarget? = nil,
                earlierNotes: [TusNote] = []) {
        precondition(chunkSize >= 1, "a chunk holds at least one byte")
        self.creationURL = creationURL
        self.file = file
        self.metadata = metadata
        self.chunkSize = chunkSize
        self.chunkSizeFollowsLink = chunkSizeFollowsLink
        self.sendsChecksums = sendsChecksums
        self.sendsDataInCreation = sendsDataInCreation
        self.uploadURL = uploadURL
        self.earlierNotes = earlierNotes
    }
}
