import Foundation
import Receiver
import TestSupport
import Testing

/// `ferry send --profile NAME` against `ferry serve`: the profile's URL, parameters and header
/// (its secret from the environment) arrive; the command line wins over the profile.
@Suite("ferry send --profile (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct ProfileSendCommandTests {
    /// Writes `profiles.toml` under `dir/config/ferry/` (readable by the unprivileged user).
    private func writeProfiles(_ text: String, in dir: TemporaryDirectory) throws -> String {
        let config = dir.path("config")
        try FileManager.default.createDirectory(atPath: config + "/ferry", withIntermediateDirectories: true)
        try text.write(toFile: config + "/ferry/profiles.toml", atomically: true, encoding: .utf8)
        return config
    }

    @Test("the profile's URL, parameters and ${ENV} header arrive; -F and --field override it")
    func profileSends() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 10)
        let access = ReceiverAccess.token("s3cret-token")
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("received"), access: access)) { server in
            let config = try writeProfiles("""
                [profiles.site]
                url = "\(server.baseURL)/upload"
                field = "upload"
                parameters = ["album=2024", "tag=x"]
                headers = ["Authorization: Bearer ${FERRY_TEST_TOKEN}"]
                """, in: dir)
            let environment = ["XDG_CONFIG_HOME": config, "FERRY_TEST_TOKEN": "s3cret-token"]
            let plain = try FerryProcess(["send", "--profile", "site", file], stateHome: dir.path("state"), environment: environment)
            #expect(try await plain.exitStatus() == 0, "\(plain.errorText)")
            let first = try #require(server.receivedUploads.first)
            #expect(first.fields == ["album": ["2024"], "tag": ["x"]])
            #expect(first.files.map(\.field) == ["upload"])

            let overridden = try FerryProcess(["send", "--profile", "site", "-F", "tag=y", "--field", "doc", file],
                                              stateHome: dir.path("state"), environment: environment)
            #expect(try await overridden.exitStatus() == 0, "\(overridden.errorText)")
            let second = try #require(server.receivedUploads.last)
            #expect(second.fields == ["album": ["2024"], "tag": ["y"]])
            #expect(second.files.map(\.field) == ["doc"])

            let wrongToken = try FerryProcess(["send", "--profile", "site", "-H", "Authorization: Bearer nope", "--retry", "0", file],
                                              stateHome: dir.path("state"), environment: environment)
            #expect(try await wrongToken.exitStatus() == 1, "the -H header replaces the profile's, and the server refuses it")
            #expect(server.receivedUploads.count == 2)
        }
    }

    @Test("--no-insecure, --no-location, --no-bundle and --no-tus switch off what a profile switches on")
    func switchedOff() async throws {
        let dir = TemporaryDirectory()
        let a = dir.file("a.txt", bytes: 10)
        let b = dir.file("b.txt", bytes: 10)
        let config = try writeProfiles("""
            [profiles.on]
            url = "https://uploads.test/upload"
            insecure = true
            location = true
            bundle = true

            [profiles.resumable]
            url = "https://uploads.test/files/"
            protocol = "tus"
            """, in: dir)
        let environment = ["XDG_CONFIG_HOME": config]
        func run(_ arguments: [String]) async throws -> [String] {
            let process = try FerryProcess(["send"] + arguments, stateHome: dir.path("state"), environment: environment)
            #expect(try await process.exitStatus() == 0, "\(arguments): \(process.errorText)")
            return process.outputLines
        }
        let on = try await run(["--profile", "on", "--print-curl", a, b])
        #expect(on.count == 1, "bundled: one request\n\(on)")
        #expect(on.first.map { $0.contains(" -k ") && $0.contains(" -L ") } == true, "\(on)")
        let off = try await run(["--profile", "on", "--no-insecure", "--no-location", "--no-bundle", "--print-curl", a, b])
        #expect(off.count == 2, "one request a file\n\(off)")
        #expect(!off.contains { $0.contains(" -k ") || $0.contains(" -L ") }, "\(off)")

        let tus = try await run(["--profile", "resumable", "--dry-run", a])
        #expect(tus.first?.hasPrefix("OPTIONS /files/ HTTP/1.1") == true, "\(tus.prefix(3))")
        let multipart = try await run(["--profile", "resumable", "--no-tus", "--dry-run", a])
        #expect(multipart.first?.hasPrefix("POST /files/ HTTP/1.1") == true, "\(multipart.prefix(3))")
    }

    @Test("a variable not set, an unknown profile or a file with an error stop before anything is sent, named")
    func errorsNamed() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 10)
        let config = try writeProfiles("""
            [profiles.site]
            url = "http://127.0.0.1:9/upload"
            headers = ["Authorization: Bearer ${FERRY_TEST_UNSET_TOKEN}"]
            """, in: dir)
        let missing = try FerryProcess(["send", "--profile", "site", file], stateHome: dir.path("state"),
                                       environment: ["XDG_CONFIG_HOME": config])
        #expect(try await missing.exitStatus() == 2)
        #expect(missing.errorText.contains("FERRY_TEST_UNSET_TOKEN is not set"), "\(missing.errorText)")
        let unknown = try FerryProcess(["send", "--profile", "other", file], stateHome: dir.path("state"),
                                       environment: ["XDG_CONFIG_HOME": config])
        #expect(try await unknown.exitStatus() == 2)
        #expect(unknown.errorText.contains("no profile named 'other' (it has site)"), "\(unknown.errorText)")
        let broken = try writeProfiles("[profiles.site]\nurl = \"http://x/\"\nretry = \"3\"\n", in: dir)
        let wrong = try FerryProcess(["send", "--profile", "site", file], stateHome: dir.path("state"),
                                     environment: ["XDG_CONFIG_HOME": broken])
        #expect(try await wrong.exitStatus() == 2)
        #expect(wrong.errorText.contains("profiles.toml:3: profile 'site', key 'retry': expected an integer"), "\(wrong.errorText)")
    }
}
