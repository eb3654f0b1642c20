import FileSystem
import Multipart

/// Where a job's tus upload stands, as the journal keeps it and the details show it: the upload
/// URL, the offset the server last confirmed, the file's stamp when the upload was created, and
/// the notes of every attempt (created, resumed at, restarted).
///
/// The next attempt — in this run or, after a kill, in the next — asks the upload URL for its
/// offset (`HEAD`) and goes on from there, but only for the same file: a file that is another, or
/// whose size or modification time differ from the stamp, starts a new upload, never one mixing
/// two contents.
public struct TusCheckpoint: Sendable, Hashable, Codable {
    /// The most notes kept (the oldest are dropped).
    public static let maximumNotes = 20

    /// The upload's URL, once the server created it.
    public var uploadURL: String?
    /// The bytes the server confirmed.
    public var offset: Int64
    /// The file's stamp when the upload was created.
    public var fileStamp: FileStamp
    /// What happened, oldest first.
    public var notes: [TusNote]

    /// Creates a checkpoint.
    ///
    /// - Parameters:
    ///   - uploadURL: The upload URL, if created.
    ///   - offset: The confirmed offset.
    ///   - file: The file the upload is of.
    ///   - notes: The notes, oldest first (only the last `maximumNotes` are kept).
    public init(uploadURL: String?, offset: Int64, file: FileSnapshot, notes: [TusNote]) {
        self.uploadURL = uploadURL
        self.offset = offset
        self.fileStamp = file.stamp
        self.notes = Array(notes.suffix(Self.maximumNotes))
    }

    /// The file's size when the upload was created.
    public var fileSize: Int64 { fileStamp.size }

    /// Whether the checkpoint is of this file as it is now (``FileStamp/change(to:)``: the same
    /// file, size and modification time).
    ///
    /// - Parameter file: The file's current snapshot.
    /// - Returns: Whether the upload may go on with it.
    public func isOf(_ file: FileSnapshot) -> Bool {
        fileStamp.change(to: file.stamp) == nil
    }
}
