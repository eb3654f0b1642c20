import Foundation

/// Certificates made with `openssl` at test time, in a temporary directory: a certificate
/// authority made for the test and the server and client certificates it signs (valid, expired
/// or not yet valid), and self-signed ones.
package final class TestCertificates {
    /// When an issued certificate is valid.
    package enum Validity {
        /// From now for two days.
        case current
        /// In 2020, long over.
        case expired
        /// From 2090.
        case notYetValid
    }

    /// `openssl req`'s options for every new key: P-256, which is made in milliseconds where an
    /// RSA key can take seconds of a busy machine.
    private static let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]

    /// Where the PEM files are.
    package let directory: TemporaryDirectory
    /// The authority's certificate (PEM): what a client is told to trust.
    package let authority: String
    private let authorityKey: String

    /// Makes a new authority.
    ///
    /// - Parameter name: Its common name (`Ferry Test CA`).
    package init(name: String = "Ferry Test CA") throws {
        directory = TemporaryDirectory()
        authority = directory.path("ca.pem")
        authorityKey = directory.path("ca.key")
        try Self.openssl(["req", "-x509"] + Self.newKey + ["-nodes", "-keyout", authorityKey, "-out", authority,
                          "-days", "2", "-subj", "/CN=\(name)",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    }

    /// A certificate and key signed by the authority, for `names` (DNS names and IP addresses).
    ///
    /// - Parameters:
    ///   - name: The files' base name: `NAME.pem` and `NAME.key`.
    ///   - names: Subject alternative names: `DNS:localhost`, `IP:127.0.0.1`.
    ///   - usage: `serverAuth` or `clientAuth`.
    ///   - validity: When it is valid (`openssl ca` sets the dates of the other two).
    /// - Returns: The certificate's and the key's paths.
    package func issue(_ name: String, for names: [String] = ["DNS:localhost", "IP:127.0.0.1"],
               usage: String = "serverAuth", validity: Validity = .current) throws -> (certificate: String, key: String) {
        let certificate = directory.path("\(name).pem")
        let key = directory.path("\(name).key")
        let request = directory.path("\(name).csr")
        let extensions = directory.path("\(name).ext")
        try "subjectAltName=\(names.joined(separator: ","))\nextendedKeyUsage=\(usage)\n"
            .write(toFile: extensions, atomically: true, encoding: .utf8)
        try Self.openssl(["req"] + Self.newKey + ["-nodes", "-keyout", key, "-out", request, "-subj", "/CN=\(name)"])
        switch validity {
        case .current:
            try Self.openssl(["x509", "-req", "-in", request, "-CA", authority, "-CAkey", authorityKey, "-CAcreateserial",
                              "-out", certificate, "-days", "2", "-extfile", extensions])
        case .expired:
            try sign(request, into: certificate, extensions: extensions, from: "20200101000000Z", until: "20200102000000Z")
        case .notYetValid:
            try sign(request, into: certificate, extensions: extensions, from: "20900101000000Z", until: "20900102000000Z")
        }
        return (certificate, key)
    }

    /// A self-signed certificate and its key for `names`, signed by no authority.
    ///
    /// - Parameters:
    ///   - name: The files' base name and the common name.
    ///   - names: Subject alternative names.
    /// - Returns: The certificate's and the key's paths.
    package func selfSigned(_ name: String, for names: [String] = ["DNS:localhost", "IP:127.0.0.1"]) throws
        -> (certificate: String, key: String) {
        let certificate = directory.path("\(name).pem")
        let key = directory.path("\(name).key")
        try Self.openssl(["req", "-x509"] + Self.newKey + ["-nodes", "-keyout", key, "-out", certificate, "-days", "2",
                          "-subj", "/CN=\(name)", "-addext", "subjectAltName=\(names.joined(separator: ","))"])
        return (certificate, key)
    }

    /// Signs a request with `openssl ca`, which (unlike `x509` in OpenSSL 3.0) takes a start and
    /// an end date, from a minimal configuration of its own.
    private func sign(_ request: String, into certificate: String, extensions: String, from start: String, until end: String) throws {
        let database = directory.path("ca-index.txt")
        if !FileManager.default.fileExists(atPath: database) {
            try "".write(toFile: database, atomically: true, encoding: .utf8)
            try "1000\n".write(toFile: directory.path("ca-serial"), atomically: true, encoding: .utf8)
        }
        let configuration = directory.path("ca.cnf")
        try """
        [ca]
        default_ca = test
        [test]
        database = \(database)
        new_certs_dir = \(directory.path)
        serial = \(directory.path("ca-serial"))
        default_md = sha256
        policy = anything
        unique_subject = no
        [anything]
        commonName = supplied
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        try Self.openssl(["ca", "-batch", "-notext", "-config", configuration, "-cert", authority, "-keyfile", authorityKey,
                          "-in", request, "-out", certificate, "-startdate", start, "-enddate", end, "-extfile", extensions])
    }

    /// Runs `openssl` with `arguments`; throws with its error output when it fails.
    package static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("openssl \(arguments.first ?? "") failed: \(String(decoding: output, as: UTF8.self))")
        }
    }
}
