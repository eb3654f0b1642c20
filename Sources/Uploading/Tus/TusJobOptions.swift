/// A job that is a tus upload rather than a form (`ferry send --tus`): its URL is the creation
/// URL, its one file goes up in chunks, its text parameters become `Upload-Metadata`.
public struct TusJobOptions: Sendable, Hashable, Codable {
    /// The most bytes one request carries (`--chunk-size`).
    public var chunkSize: Int64

    /// Creates the options.
    ///
    /// - Parameter chunkSize: The chunk size; at least 1.
    public init(chunkSize: Int64 = TusUploadPlan.defaultChunkSize) {
        precondition(chunkSize >= 1, "a chunk holds at least one byte")
        self.chunkSize = chunkSize
    }
}
