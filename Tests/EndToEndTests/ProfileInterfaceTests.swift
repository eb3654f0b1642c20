import Foundation
import TestSupport
import Testing

/// Endpoint profiles and the request keys in the interface (`ferry` in tmux, as an ordinary
/// user): pick a profile and upload with it against `ferry serve`; `y` puts the curl command on
/// tmux's clipboard through OSC 52; save the form as a profile without its secret.
@Suite("Profiles and the request in the interface", .serialized, .timeLimit(.minutes(2)))
struct ProfileInterfaceTests {
    /// Writes `profiles.toml` under the session's scratch folder and returns `XDG_CONFIG_HOME`.
    private func writeProfiles(_ text: String, in tmux: TmuxSession) throws -> String {
        let config = tmux.scratch.path + "/config"
        try FileManager.default.createDirectory(atPath: config + "/ferry", withIntermediateDirectories: true)
        try text.write(toFile: config + "/ferry/profiles.toml", atomically: true, encoding: .utf8)
        return config
    }

    @Test("P picks a profile (its ${ENV} token from the environment); y copies the curl command; the upload carries the profile",
          arguments: [(80, 24), (120, 40)])
    func pickCopyAndUpload(width: Int, height: Int) async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(["--token", "e2e-token"])
        let tmux = try TmuxSession(width: width, height: height)
        defer { tmux.kill(); receiver.terminate() }
        try tmux.setOption("set-clipboard", "on")
        let config = try writeProfiles("""
            [profiles.site]
            url = "\(receiver.baseURL)/upload"
            parameters = ["album=2024"]
            headers = ["Authorization: Bearer ${FERRY_E2E_TOKEN}"]
            """, in: tmux)
        let files = tmux.scratch.path + "/files"
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        try TestFile.write(Array("profile upload".utf8), to: files + "/a.txt")
        try tmux.run("env XDG_CONFIG_HOME='\(config)' FERRY_E2E_TOKEN=e2e-token '\(binary)' '\(files)'; echo FERRY-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("a.txt") }
        try tmux.send("2", "P", literally: true)
        try await tmux.waitFor("the picker") { $0.contains("Profiles in") && $0.contains("site") }
        try tmux.send("Enter")
        let form = try await tmux.waitFor("the profile loaded") { $0.contains("loaded profile site") }
        #expect(form.contains("album=2024") && form.contains("Authorization: ••••"), "\(form)")
        #expect(!form.contains("e2e-token"))
        try tmux.send("1", "Space", "2", "y", literally: true)
        try await tmux.waitFor("the curl command") { $0.contains("copied to the clipboard") }
        let copied = try tmux.pasteBuffer()
        #expect(copied.hasPrefix("curl \(receiver.baseURL)/upload -H 'Authorization: ********' --form-string album=2024 -F "),
                "\(copied)")
        #expect(copied.contains("filename=\"a.txt\""))
        try tmux.send("Escape")
        try tmux.send("u", literally: true)
        try await tmux.waitFor("the upload done") { $0.contains("done 1") }
        let logged = await receiver.logLines(atLeast: 1).filter { ($0["status"] as? Int) == 200 }
        #expect(logged.count == 1, "the token from the environment was accepted")
        #expect((logged.first?["fields"] as? [String: [String]])?["album"] == ["2024"])
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
    }

    @Test("ferry --profile NAME starts with the profile in the Form; an option given wins; a variable not set stops it, named")
    func profileOption() async throws {
        let binary = try FerryBinary.requirePath()
        let tmux = try TmuxSession(width: 80, height: 24)
        defer { tmux.kill() }
        let config = try writeProfiles("""
            [profiles.site]
            url = "http://127.0.0.1:9/site"
            field = "image"
            headers = ["X-Api-Key: ${FERRY_E2E_KEY}"]
            """, in: tmux)
        try tmux.run("env XDG_CONFIG_HOME='\(config)' '\(binary)' --profile site '\(tmux.scratch.path)'; echo FIRST-\"\"EXITED $?")
        try await tmux.waitFor("the variable named") { $0.contains("FIRST-EXITED 2") }
        #expect(try tmux.capture().contains("FERRY_E2E_KEY is not set"))
        try tmux.run("env XDG_CONFIG_HOME='\(config)' FERRY_E2E_KEY=k1 '\(binary)' --profile site --field doc '\(tmux.scratch.path)'; "
                     + "echo SECOND-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("1 Files") }
        try tmux.send("2", literally: true)
        let form = try await tmux.waitFor("the form") { $0.contains("+ header") }
        #expect(form.contains("http://127.0.0.1:9/site") && form.contains("File field   doc"), "\(form)")
        #expect(form.contains("X-Api-Key: ••••") && !form.contains("k1"))
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("SECOND-EXITED") }
    }

    @Test("S saves the form as a profile: the file holds its URL and parameters, the secret header as a ${NAME} reference")
    func saveWithoutSecret() async throws {
        let binary = try FerryBinary.requirePath()
        let tmux = try TmuxSession(width: 80, height: 24)
        defer { tmux.kill() }
        let config = tmux.scratch.path + "/config"
        try tmux.run("env XDG_CONFIG_HOME='\(config)' '\(binary)' --url http://127.0.0.1:9/up -F note=hi "
                     + "-H 'Authorization: Bearer very-s3cret' '\(tmux.scratch.path)'; echo FERRY-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("1 Files") }
        try tmux.send("2", "S", literally: true)
        try await tmux.waitFor("the name asked") { $0.contains("Save the form as a profile") }
        try tmux.send("saved", literally: true)
        try tmux.send("Enter")
        try await tmux.waitFor("the profile saved") { $0.contains("saved profile saved") }
        let text = try String(contentsOfFile: config + "/ferry/profiles.toml", encoding: .utf8)
        #expect(text.contains("[profiles.saved]"), "\(text)")
        #expect(text.contains("url = \"http://127.0.0.1:9/up\""))
        #expect(text.contains("parameters = [ \"note=hi\" ]"))
        #expect(text.contains("\"Authorization: ${SAVED_AUTHORIZATION}\""))
        #expect(!text.contains("very-s3cret"))
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
    }
}
