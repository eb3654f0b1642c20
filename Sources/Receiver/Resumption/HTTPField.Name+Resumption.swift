import HTTPTypes

extension HTTPField.Name {
    /// `Upload-Draft-Interop-Version`: the version of the resumable-upload draft spoken (6).
    static let uploadDraftInteropVersion = Self("Upload-Draft-Interop-Version")!
    /// `Upload-Complete`: whether a request's body ends the upload (`?1`) or not (`?0`).
    static let uploadComplete = Self("Upload-Complete")!
    /// `Forwarded` (RFC 7239): a proxy passed the request on.
    static let forwarded = Self("Forwarded")!
    /// `X-Forwarded-For`: a proxy passed the request on.
    static let xForwardedFor = Self("X-Forwarded-For")!
}
