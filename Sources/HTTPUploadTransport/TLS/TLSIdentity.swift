import UploadModel

/// What decides a TLS client context, out of a job's `ConnectionOptions`: whether certificates
/// are verified and against which authorities, the client certificate and its key, and the
/// protocols offered by ALPN. Two jobs whose options differ elsewhere (proxy, redirects) share
/// contexts and, through `ConnectionIdentity`, connections.
struct TLSIdentity: Hashable, Sendable {
    /// Whether the server's certificate is verified (`--insecure` turns this off).
    let verifiesCertificates: Bool
    /// `--cacert`.
    let certificateAuthorityFile: String?
    /// `--capath`.
    let certificateAuthorityDirectory: String?
    /// `--cert`.
    let clientCertificateFile: String?
    /// `--key`.
    let clientKeyFile: String?
    /// Whether ALPN offers `h2` (`--http2`).
    let offersHTTP2: Bool

    /// The TLS part of `options`.
    ///
    /// - Parameter options: A job's connection options.
    init(_ options: ConnectionOptions) {
        verifiesCertificates = options.verifiesCertificates
        certificateAuthorityFile = options.certificateAuthorityFile
        certificateAuthorityDirectory = options.certificateAuthorityDirectory
        clientCertificateFile = options.clientCertificateFile
        clientKeyFile = options.clientKeyFile
        offersHTTP2 = options.offersHTTP2
    }

    /// The files and directories a context is read from, in a fixed order: a context made
    /// from them is stale once any of them changes (is created, replaced, rewritten or removed).
    var files: [String] {
        var files: [String] = []
        if verifiesCertificates {
            if let certificateAuthorityFile { files.append(certificateAuthorityFile) }
            if let certificateAuthorityDirectory { files.append(certificateAuthorityDirectory) }
        }
        if let clientCertificateFile { files.append(clientCertificateFile) }
        if let clientKeyFile { files.append(clientKeyFile) }
        return files
    }
}
