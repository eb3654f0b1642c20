import HTTPTypes

extension HTTPField.Name {
    /// `Tus-Resumable`: the protocol version of a request or response.
    static let tusResumable = Self("Tus-Resumable")!
    /// `Tus-Version`: the versions a server speaks.
    static let tusVersion = Self("Tus-Version")!
    /// `Tus-Extension`: the extensions a server offers.
    static let tusExtension = Self("Tus-Extension")!
    /// `Tus-Max-Size`: the largest upload a server accepts.
    static let tusMaxSize = Self("Tus-Max-Size")!
    /// `Tus-Checksum-Algorithm`: the checksum algorithms a server checks.
    static let tusChecksumAlgorithm = Self("Tus-Checksum-Algorithm")!
    /// `Upload-Length`: an upload's size.
    static let uploadLength = Self("Upload-Length")!
    /// `Upload-Defer-Length`: a creation whose size is not known yet.
    static let uploadDeferLength = Self("Upload-Defer-Length")!
    /// `Upload-Offset`: the bytes an upload holds (or where a PATCH's bytes go).
    static let uploadOffset = Self("Upload-Offset")!
    /// `Upload-Metadata`: an upload's key-value pairs.
    static let uploadMetadata = Self("Upload-Metadata")!
    /// `Upload-Expires`: when an unfinished upload is removed.
    static let uploadExpires = Self("Upload-Expires")!
    /// `Upload-Checksum`: the digest of a PATCH's bytes.
    static let uploadChecksum = Self("Upload-Checksum")!
}
