import FoundationEssentials
import NIOSSL
import UploadModel

/// Makes the TLS client context for a job's `TLSIdentity`, as curl reads its options:
/// the trusted authorities (`--cacert` file and `--capath` directory, together; the system's
/// when neither is given; a `c_rehash` directory is searched by subject hash, a plain one read
/// whole), the client certificate for mutual TLS (`--cert`, its key in `--key`
/// or in the same file), or no verification at all (`--insecure`). With `--http2`, ALPN
/// offers `h2` and `http/1.1` (`ConnectionSetup` reads which the server chose); otherwise (the
/// default, `--http1.1`) the handshake offers no protocol at all, and the server speaks HTTP/1.1.
enum TLSContextFactory {
    /// The context for `options`, its files read now (`TLSContextCache` keeps it while they are
    /// unchanged).
    ///
    /// - Parameter options: The TLS part of the job's connection options.
    /// - Returns: A context for every connection with these options.
    /// - Throws: `UploadError.transferFailed(.tlsFileUnusable)` naming the option and the path
    ///   when a file is missing, unreadable or holds no PEM certificate or key.
    static func context(for options: TLSIdentity) throws(UploadError) -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        if options.offersHTTP2 { tls.applicationProtocols = ["h2", "http/1.1"] }
        if !options.verifiesCertificates {
            tls.certificateVerification = .none
        } else if options.certificateAuthorityFile != nil || options.certificateAuthorityDirectory != nil {
            var roots: [NIOSSLCertificate] = []
            if let file = options.certificateAuthorityFile {
                roots += try certificates(inFile: file, option: "--cacert")
            }
            var hashedDirectory: String?
            if let directory = options.certificateAuthorityDirectory {
                let entries = try entries(ofDirectory: directory, option: "--capath")
                if entries.contains(where: isHashName) {
                    hashedDirectory = directory
                } else {
                    roots += try certificates(inDirectory: directory, entries: entries, option: "--capath")
                }
            }
            if let hashedDirectory {
                // Looked up by subject hash when a handshake needs an issuer, as OpenSSL and curl
                // read `-CApath`: a system directory of hundreds is not read at start.
                tls.trustRoots = .file(hashedDirectory)
                tls.additionalTrustRoots = roots.isEmpty ? [] : [.certificates(roots)]
            } else {
                tls.trustRoots = .certificates(roots)
            }
        }
        if let certificateFile = options.clientCertificateFile {
            tls.certificateChain = try certificates(inFile: certificateFile, option: "--cert").map { .certificate($0) }
            let keyFile = options.clientKeyFile ?? certificateFile
            tls.privateKey = .privateKey(try privateKey(inFile: keyFile, option: options.clientKeyFile == nil ? "--cert" : "--key"))
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            if let certificateFile = options.clientCertificateFile {
                // The files parsed, so what BoringSSL refused is the pair.
                throw .transferFailed(reason: .tlsFileUnusable(
                    option: options.clientKeyFile == nil ? "--cert" : "--key", path: options.clientKeyFile ?? certificateFile,
                    problem: "the private key does not match the certificate in \(certificateFile)"))
            }
            throw .transferFailed(reason: .other(message: "the TLS settings could not be used"))
        }
    }

    /// The PEM certificates in a file.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - option: The option that named it, for the error.
    /// - Throws: `tlsFileUnusable` when it is missing, a directory, unreadable or holds none.
    static func certificates(inFile path: String, option: String) throws(UploadError) -> [NIOSSLCertificate] {
        let bytes = try contents(of: path, option: option)
        let certificates = (try? NIOSSLCertificate.fromPEMBytes(bytes)) ?? []
        guard !certificates.isEmpty else { throw unusable(option, path, "holds no PEM certificate") }
        return certificates
    }

    /// Whether `name` is one `openssl rehash` gives a certificate: eight hex digits, a dot, a
    /// decimal collision number. A directory holding one is in `c_rehash` form, so BoringSSL can
    /// find an issuer in it by subject hash without reading the others.
    static func isHashName(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 8, !parts[1].isEmpty else { return false }
        return parts[0].allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
            && parts[1].allSatisfy { (48...57).contains($0) }
    }

    /// Every PEM certificate in the files of a directory that is not in `c_rehash` form, files
    /// that hold none skipped.
    ///
    /// - Parameters:
    ///   - path: The directory.
    ///   - entries: Its entries' names (`entries(ofDirectory:option:)`).
    ///   - option: The option that named it, for the error.
    /// - Throws: `tlsFileUnusable` when it holds no certificate at all.
    private static func certificates(inDirectory path: String, entries: [String], option: String) throws(UploadError)
        -> [NIOSSLCertificate] {
        var found = Set<NIOSSLCertificate>()
        var certificates: [NIOSSLCertificate] = []
        for entry in entries.sorted() {
            let file = path.hasSuffix("/") ? path + entry : path + "/" + entry
            guard let bytes = FileManager.default.contents(atPath: file),
                  let parsed = try? NIOSSLCertificate.fromPEMBytes(Array(bytes)) else { continue }
            for certificate in parsed where found.insert(certificate).inserted {
                certificates.append(certificate)
            }
        }
        guard !certificates.isEmpty else { throw unusable(option, path, "holds no PEM certificate") }
        return certificates
    }

    /// The PEM private key in a file.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - option: The option that named it (`--key`, or `--cert` when the key is expected
    ///     next to the certificate).
    /// - Throws: `tlsFileUnusable` when it is missing, unreadable or holds no key.
    static func privateKey(inFile path: String, option: String) throws(UploadError) -> NIOSSLPrivateKey {
        let bytes = try contents(of: path, option: option)
        guard let key = try? NIOSSLPrivateKey(bytes: bytes, format: .pem) else {
            throw unusable(option, path, option == "--key"
                ? "holds no PEM private key (or one protected by a passphrase)"
                : "holds no PEM private key; give the key with --key FILE")
        }
        return key
    }

    /// The names in a directory.
    ///
    /// - Throws: `tlsFileUnusable` when it is missing, not a directory or unreadable.
    private static func entries(ofDirectory path: String, option: String) throws(UploadError) -> [String] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw unusable(option, path, "no such directory")
        }
        guard isDirectory else { throw unusable(option, path, "not a directory") }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw unusable(option, path, "cannot be read (permission denied)")
        }
        return entries
    }

    private static func contents(of path: String, option: String) throws(UploadError) -> [UInt8] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw unusable(option, path, "no such file")
        }
        guard !isDirectory else { throw unusable(option, path, "is a directory, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw unusable(option, path, "cannot be read (permission denied)")
        }
        return Array(data)
    }

    private static func unusable(_ option: String, _ path: String, _ problem: String) -> UploadError {
        .transferFailed(reason: .tlsFileUnusable(option: option, path: path, problem: problem))
    }
}
