import Foundation
import TestSupport

/// Certificates made with `openssl` at test time, in a temporary directory: a certificate
/// authority made for the test and the server certificates it signs.
final class TestCertificates {
    /// Where the PEM files are.
    let directory: TemporaryDirectory
    /// The authority's certificate (PEM): what a client is told to trust.
    let authority: String
    private let authorityKey: String

    /// Makes a new authority (`Ferry Test CA`).
    init() throws {
        directory = TemporaryDirectory()
        authority = directory.path("ca.pem")
        authorityKey = directory.path("ca.key")
        try Self.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", authorityKey, "-out", authority,
                          "-days", "2", "-subj", "/CN=Ferry Test CA",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    }

    /// A certificate and key signed by the authority, for `names` (DNS names and IP addresses).
    ///
    /// - Parameters:
    ///   - name: The files' base name: `NAME.pem` and `NAME.key`.
    ///   - names: Subject alternative names: `DNS:localhost`, `IP:127.0.0.1`.
    ///   - usage: `serverAuth` or `clientAuth`.
    /// - Returns: The certificate's and the key's paths.
    func issue(_ name: String, for names: [String] = ["DNS:localhost", "IP:127.0.0.1"],
               usage: String = "serverAuth") throws -> (certificate: String, key: String) {
        let certificate = directory.path("\(name).pem")
        let key = directory.path("\(name).key")
        let request = directory.path("\(name).csr")
        let extensions = directory.path("\(name).ext")
        try "subjectAltName=\(names.joined(separator: ","))\nextendedKeyUsage=\(usage)\n"
            .write(toFile: extensions, atomically: true, encoding: .utf8)
        try Self.openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=\(name)"])
        try Self.openssl(["x509", "-req", "-in", request, "-CA", authority, "-CAkey", authorityKey, "-CAcreateserial",
                          "-out", certificate, "-days", "2", "-extfile", extensions])
        return (certificate, key)
    }

    /// Runs `openssl` with `arguments`; throws with its error output when it fails.
    static func openssl(_ arguments: [String]) throws {
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
