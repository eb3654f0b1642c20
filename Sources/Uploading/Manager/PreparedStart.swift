/// A request built ahead for a job that starts next (``UploadManager/prepareUpcomingStarts()``):
/// used only when the job starts as the attempt and with the spec it was built for.
struct PreparedStart: Sendable {
    /// The attempt it was built for.
    let attempt: Int
    /// The spec it was built from.
    let spec: UploadJobSpec
    /// The request: a small body already read into memory, so sending it reads no file.
    let request: UploadRequest
}
