import Foundation
import TestSupport
import Testing

/// `ferry send` (the built binary) to nginx offering HTTP/2 and HTTP/1.1 over TLS: HTTP/1.1 by
/// default and with `--http1.1`, HTTP/2 with `--http2`, the last of the two winning as in curl;
/// nginx's access log says which protocol each request came over.
@Suite("ferry send --http1.1 / --http2 against nginx", .serialized, .timeLimit(.minutes(3)))
struct HTTPVersionCommandTests {
    /// Sends one file to `server` with `arguments` and returns the protocol nginx logged for it.
    private func protocolUsed(_ arguments: [String], server: NginxServer, certificates: TestCertificates) async throws -> String? {
        let dir = TemporaryDirectory()
        let file = dir.file("report.txt", bytes: 1_000)
        let before = server.accessLog.count
        let process = try FerryProcess(
            ["send", "--json", "--retry", "0", "--cacert", certificates.authority] + arguments
                + ["--url", "https://127.0.0.1:\(server.port)/upload", file],
            stateHome: dir.path("state"))
        let status = try await process.exitStatus()
        #expect(status == 0, "\(arguments): \(process.outputLines) \(process.errorText)")
        let lines = server.accessLog.dropFirst(before)
        #expect(lines.count == 1, "\(arguments): \(lines)")
        return lines.first?.split(separator: " ").last.map(String.init)
    }

    @Test("HTTP/1.1 by default and with --http1.1; HTTP/2 with --http2; the last one given wins")
    func choosingTheVersion() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(
            try certificates.issue("server"), listenParameters: "ssl http2",
            logFormat: "$request_method $request_uri $status $server_protocol")
        #expect(try await protocolUsed([], server: server, certificates: certificates) == "HTTP/1.1")
        #expect(try await protocolUsed(["--http1.1"], server: server, certificates: certificates) == "HTTP/1.1")
        #expect(try await protocolUsed(["--http2"], server: server, certificates: certificates) == "HTTP/2.0")
        #expect(try await protocolUsed(["--http2", "--http1.1"], server: server, certificates: certificates) == "HTTP/1.1")
        #expect(try await protocolUsed(["--http1.1", "--http2"], server: server, certificates: certificates) == "HTTP/2.0")
    }
}
