import Foundation
import TestSupport
import Testing

/// Credentials given to the built `ferry send` (`-u`, `--oauth2-bearer`, `-H @FILE`) as nginx
/// (no one here wrote it) saw them: its access log records each request's `Authorization` and
/// `X-Ferry` headers.
@Suite("Credentials on the command line", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: NginxServer.executable != nil, "nginx is not installed (scripts/test.sh installs nginx-light)"))
struct CredentialCommandLineTests {
    /// Sends one small file with `arguments` to nginx; returns nginx's access log line for it.
    private func sent(with arguments: [String]) async throws -> String? {
        let nginx = try NginxServer(server: "location = /upload { return 200 'stored'; }")
        defer { nginx.stop() }
        let directory = TemporaryDirectory()
        let file = directory.file("note.txt", bytes: 100)
        let process = try FerryProcess(["send", "--url", "http://127.0.0.1:\(nginx.port)/upload"] + arguments + [file],
                                       stateHome: directory.path("state"))
        #expect(try await process.exitStatus() == 0, "\(process.errorText)")
        let deadline = ContinuousClock.now + .seconds(10)
        while nginx.accessLog.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(nginx.accessLog.count == 1)
        return nginx.accessLog.first
    }

    @Test("-u user:password arrives as Basic")
    func basic() async throws {
        // `printf 'uploader:s3cret' | base64`
        let line = try await sent(with: ["-u", "uploader:s3cret"])
        #expect(line?.hasPrefix("POST /upload 200 ") == true, "\(line ?? "nothing")")
        #expect(line?.hasSuffix(#""Basic dXBsb2FkZXI6czNjcmV0" "-""#) == true, "\(line ?? "nothing")")
    }

    @Test("--oauth2-bearer arrives as Bearer")
    func bearer() async throws {
        let line = try await sent(with: ["--oauth2-bearer", "mF_9.B5f-4.1JqM"])
        #expect(line?.hasSuffix(#""Bearer mF_9.B5f-4.1JqM" "-""#) == true, "\(line ?? "nothing")")
    }

    @Test("-H @FILE: headers from a file with a comment, a blank line and CRLF")
    func headerFile() async throws {
        let directory = TemporaryDirectory()
        let headers = try directory.write("headers.txt", Array("# upload credentials\r\n\r\nAuthorization: Bearer from-file\r\nX-Ferry: filed\r\n".utf8))
        let line = try await sent(with: ["-H", "@" + headers])
        #expect(line?.hasSuffix(#""Bearer from-file" "filed""#) == true, "\(line ?? "nothing")")
    }

    @Test("an explicit -H Authorization wins over -u, as in curl")
    func explicitHeaderWins() async throws {
        let line = try await sent(with: ["-u", "uploader:s3cret", "-H", "Authorization: Token custom"])
        #expect(line?.hasSuffix(#""Token custom" "-""#) == true, "\(line ?? "nothing")")
        let directory = TemporaryDirectory()
        let file = directory.file("note.txt", bytes: 10)
        let process = try FerryProcess(["send", "--dry-run", "--url", "http://example.test/up", "--oauth2-bearer", "t0k",
                                        "-H", "authorization: Token custom", file], stateHome: directory.path("state"))
        #expect(try await process.exitStatus() == 0, "\(process.errorText)")
        #expect(process.outputLines.filter { $0.lowercased().hasPrefix("authorization:") } == ["authorization: Token custom"])
    }

    @Test("--dry-run shows the credential headers and touches no network")
    func dryRun() async throws {
        let directory = TemporaryDirectory()
        let file = directory.file("note.txt", bytes: 10)
        let headers = try directory.write("headers.txt", Array("X-Ferry: filed\n".utf8))
        let process = try FerryProcess(["send", "--dry-run", "--url", "http://example.test/up", "-u", "uploader:s3cret",
                                        "-H", "@" + headers, file], stateHome: directory.path("state"))
        #expect(try await process.exitStatus() == 0, "\(process.errorText)")
        let lines = process.outputLines
        #expect(lines.contains("X-Ferry: filed"), "\(lines)")
        #expect(lines.contains("Authorization: Basic dXBsb2FkZXI6czNjcmV0"), "\(lines)")
        let bearer = try FerryProcess(["send", "--dry-run", "--url", "http://example.test/up", "--oauth2-bearer", "t0k",
                                       file], stateHome: directory.path("state"))
        #expect(try await bearer.exitStatus() == 0, "\(bearer.errorText)")
        #expect(bearer.outputLines.contains("Authorization: Bearer t0k"), "\(bearer.outputLines)")
    }

    @Test("usage errors: -u without a password, a missing or malformed header file, -u with --oauth2-bearer")
    func usageErrors() async throws {
        let directory = TemporaryDirectory()
        let file = directory.file("note.txt", bytes: 10)
        let malformed = try directory.write("bad.txt", Array("X-Ferry: 1\nBearer s3cret\n".utf8))
        let cases: [([String], String)] = [
            (["-u", "alice"], "-u alice: give user:password (Ferry does not prompt for the password)"),
            (["-H", "@" + directory.path("none.txt")],
             "-H @\(directory.path("none.txt")): cannot read the header file: no such file or directory"),
            (["-H", "@" + malformed], "-H @\(malformed): line 2 is not 'Name: value'"),
            (["-u", "a:b", "--oauth2-bearer", "t"], "-u and --oauth2-bearer both set the Authorization header: give one"),
        ]
        for (arguments, message) in cases {
            let process = try FerryProcess(["send", "--dry-run", "--url", "http://example.test/up"] + arguments + [file],
                                           stateHome: directory.path("state"))
            #expect(try await process.exitStatus() == 2, "\(arguments)")
            #expect(process.errorText.contains(message), "\(arguments): \(process.errorText)")
            #expect(!process.errorText.contains("s3cret"))
        }
    }
}
