/// A job that is a tus upload rather than a form (`ferry send --tus`): its URL is the creation
/// URL, its one file goes up in chunks, its text parameters become `Upload-Metadata`.
public struct TusJobOptions: Sendable, Hashable, Codable {
    /// The most bytes one request carries (`--chunk-size`); nil: chunks follow the link
    /// (``TusChunkSizing``), from ``TusUploadPlan/defaultChunkSize``.
    public var chunkSize: Int64?
    /// Whether each chunk carries an `Upload-Checksum` where the server offers checksums (not
    /// with `--no-checksum`).
    public var sendsChecksums: Bool
    /// Whether the creation `POST` carries the first chunk where the server offers
    /// `creation-with-upload` (`--tus-creation-with-upload`). Off by default, as tus-js-client
    /// and tuspy do: some servers (tuspyserver) never call their completion hook for an upload
    /// finished inside its `POST`.
    public var sendsDataInCreation: Bool

    private enum CodingKeys: String, CodingKey {
        case chunkSize, sendsChecksums, sendsDataInCreation
    }

    /// Creates the options.
    ///
    /// - Parameters:
    ///   - chunkSize: The chunk size, at least 1; nil to follow the link.
    ///   - sendsChecksums: Whether chunks carry checksums where the server offers them.
    ///   - sendsDataInCreation: Whether the creation `POST` carries the first chunk.
    public init(chunkSize: Int64? = nil, sendsChecksums: Bool = true, sendsDataInCreation: Bool = false) {
        precondition((chunkSize ?? 1) >= 1, "a chunk holds at least one byte")
        self.chunkSize = chunkSize
        self.sendsChecksums = sendsChecksums
        self.sendsDataInCreation = sendsDataInCreation
    }

    /// Decodes the options; a job journaled before `sendsChecksums` existed sends them (one
    /// journaled before chunks followed the link keeps its fixed size).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chunkSize = try container.decodeIfPresent(Int64.self, forKey: .chunkSize)
        sendsChecksums = try container.decodeIfPresent(Bool.self, forKey: .sendsChecksums) ?? true
        sendsDataInCreation = try container.decodeIfPresent(Bool.self, forKey: .sendsDataInCreation) ?? false
    }
}
