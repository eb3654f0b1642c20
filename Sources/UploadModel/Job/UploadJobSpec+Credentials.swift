import Multipart

extension UploadJobSpec {
    /// Whether the job's requests carry credentials: a secret header (`Authorization`, `Cookie`,
    /// a token or key header) or a URL's `user:password` (sent as Basic authentication).
    public var carriesCredentials: Bool {
        headers.contains(where: \.isSecretHeader) || (try? UploadTarget(url))?.basicCredentials != nil
    }
}
