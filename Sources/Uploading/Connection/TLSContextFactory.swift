import NIOSSL

/// Makes the TLS client context for a job's `ConnectionOptions`.
enum TLSContextFactory {
    /// The context: verification as the options say.
    ///
    /// - Parameter options: The job's connection options.
    /// - Returns: A context the pool keeps for every connection with these options.
    /// - Throws: `UploadError.transferFailed(.tlsFailed)` when the context cannot be made.
    static func context(for options: ConnectionOptions) throws(UploadError) -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !options.verifiesCertificates { tls.certificateVerification = .none }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw .transferFailed(reason: .tlsFailed(message: String(describing: error)))
        }
    }
}
