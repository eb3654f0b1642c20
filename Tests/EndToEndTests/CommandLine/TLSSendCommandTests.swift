import Foundation
import TestSupport
import Testing
import UploadModel

/// The built `ferry send` against nginx with TLS: trust through each option and each variable
/// curl and OpenSSL read, mutual TLS, `-k`, and the errors as a user reads them — the line and
/// `--json`'s `error` field — in words naming the host, with no type names or build paths.
@Suite("ferry send over TLS (the built binary)", .serialized, .timeLimit(.minutes(3)))
struct TLSSendCommandTests {
    /// What a finished `ferry send` printed.
    struct Run {
        /// The exit status.
        let status: Int32
        /// Standard output's lines.
        let lines: [String]
        /// Standard error.
        let errors: String
        /// From start to exit.
        let elapsed: Duration

        /// The `error` fields of `--json`'s events.
        var jsonErrors: [String] {
            lines.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["error"] as? String
            }
        }
    }

    /// Runs `ferry send ARGUMENTS` to completion with the trust variables cleared, then `environment`.
    ///
    /// The process is waited for on a thread of its own: the test runner's threads (as many as
    /// the cores) also run the other tests' in-process receivers.
    static func send(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try sendBlocking(arguments, environment: environment) })
            }
        }
    }

    private static func sendBlocking(_ arguments: [String], environment: [String: String]) throws -> Run {
        let state = TemporaryDirectory()
        let process = Process()
        var variables = ProcessInfo.processInfo.environment
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR", "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            variables[name] = nil
        }
        variables["XDG_STATE_HOME"] = state.path
        process.environment = variables.merging(environment) { $1 }
        try FerryBinary.prepare(process, arguments: ["send"] + arguments)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        // A few lines each: neither pipe fills while the other is read.
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Run(status: process.terminationStatus, lines: text.split(separator: "\n").map(String.init),
                   errors: errorText, elapsed: start.duration(to: .now))
    }

    @Test("--cacert, --capath, CURL_CA_BUNDLE, SSL_CERT_FILE and SSL_CERT_DIR each trust the test's authority; -k needs none")
    func trust() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"))
        let dir = TemporaryDirectory()
        let file = dir.file("report.txt", bytes: 500)
        let authorities = TemporaryDirectory()
        try FileManager.default.copyItem(atPath: certificates.authority, toPath: authorities.path("corp.pem"))
        let url = "https://localhost:\(server.port)/upload"
        let ways: [([String], [String: String])] = [
            (["--cacert", certificates.authority], [:]),
            (["--capath", authorities.path], [:]),
            ([], ["CURL_CA_BUNDLE": certificates.authority]),
            ([], ["SSL_CERT_FILE": certificates.authority]),
            ([], ["SSL_CERT_DIR": authorities.path]),
            (["-k"], [:]),
        ]
        for (options, environment) in ways {
            let run = try await Self.send(["--url", url] + options + [file], environment: environment)
            #expect(run.status == 0, "\(options) \(environment): \(run.lines) \(run.errors)")
        }
        #expect(server.accessLog.filter { $0.hasPrefix("POST /upload 200") }.count == ways.count, "\(server.accessLog)")
    }

    @Test("--cert and --key against nginx's ssl_verify_client")
    func clientCertificate() async throws {
        let certificates = try TestCertificates()
        let clients = try TestCertificates(name: "Ferry Client CA")
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"), clientAuthority: clients.authority)
        let client = try clients.issue("client", for: ["DNS:client.example"], usage: "clientAuth")
        let dir = TemporaryDirectory()
        let file = dir.file("report.txt", bytes: 500)
        let run = try await Self.send(["--url", "https://localhost:\(server.port)/upload", "--cacert", certificates.authority,
                                 "--cert", client.certificate, "--key", client.key, file])
        #expect(run.status == 0, "\(run.lines) \(run.errors)")
        #expect(server.accessLog.contains { $0.hasPrefix("POST /upload 200") }, "\(server.accessLog)")
    }

    @Test("an untrusted authority, an unusable --cacert, an unknown host and a refused port: in words on the line and in --json, at once")
    func errorsInWords() async throws {
        let certificates = try TestCertificates(name: "Internal Test Authority")
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"))
        let dir = TemporaryDirectory()
        let file = dir.file("report.txt", bytes: 500)
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let closed = refusing.port
        let cases: [([String], String)] = [
            (["--url", "https://localhost:\(server.port)/upload"],
             "the certificate of localhost is signed by an authority that is not trusted (Internal Test Authority); --cacert FILE to trust its authority, or --insecure for a test server"),
            (["--url", "https://localhost:\(server.port)/upload", "--cacert", "/nonexistent/ca.pem"], "--cacert /nonexistent/ca.pem: no such file"),
            (["--url", "https://example.invalid/upload", "--retry", "0"], "could not resolve host example.invalid"),
            (["--url", "http://localhost:\(closed)/upload", "--retry", "0"], "localhost refused the connection on port \(closed)"),
        ]
        for (arguments, expected) in cases {
            for json in [false, true] {
                let run = try await Self.send(arguments + (json ? ["--json"] : []) + [file])
                #expect(run.status == 1, "\(arguments): \(run.lines) \(run.errors)")
                let texts = json ? run.jsonErrors : run.lines
                #expect(texts.contains { $0.contains(expected) }, "\(expected) not in \(texts)")
                for text in texts { PlainWords.expectInPlainWords(text) }
                PlainWords.expectInPlainWords(run.errors)
                if expected.hasPrefix("the certificate") || expected.hasPrefix("--cacert") {
                    #expect(run.elapsed < .seconds(5), "a TLS failure is not retried: \(run.elapsed)")
                }
            }
        }
    }
}
