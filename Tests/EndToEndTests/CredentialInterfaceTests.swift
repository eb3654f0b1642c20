import Foundation
import TestSupport
import Testing

/// The interface (`ferry` in tmux) given credentials on its command line, and asked for new
/// ones when the server refuses them.
@Suite("Credentials in the interface", .serialized, .timeLimit(.minutes(2)))
struct CredentialInterfaceTests {
    @Test("-u alone wins over the saved form, as -H does: the form shows Authorization, masked")
    func userOptionWinsOverTheSavedForm() async throws {
        let binary = try FerryBinary.requirePath()
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.kill() }
        let folder = tmux.scratch.path
        // A first run saves its form (with this URL) when it quits.
        try tmux.run("'\(binary)' --url http://127.0.0.1:9/saved '\(folder)'; echo FIRST-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("1 Files") }
        try tmux.send("q", literally: true)
        try await tmux.waitFor("the first run to exit") { $0.contains("FIRST-EXITED") }
        try tmux.run("'\(binary)' -u alice:s3cret '\(folder)'; echo SECOND-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("1 Files") }
        try tmux.send("2", literally: true)
        let form = try await tmux.waitFor("the form") { $0.contains("+ header") }
        #expect(form.contains("Authorization: ••••"), "\(form)")
        #expect(!form.contains("s3cret"))
        #expect(!form.contains("127.0.0.1:9/saved"), "the command line's settings replace the saved form")
        try tmux.send("q", literally: true)
        try await tmux.waitFor("the second run to exit") { $0.contains("SECOND-EXITED") }
    }

    @Test("a 401 holds the endpoint's uploads and asks for the header, masked; the new value sends them all")
    func refusedCredentialsAreAskedFor() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(["--token", "right-token"])
        let tmux = try TmuxSession(width: 120, height: 30)
        defer { tmux.kill(); receiver.terminate() }
        let folder = tmux.scratch.path + "/files"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["a.txt", "b.txt", "c.txt"] { try TestFile.write(Array("content of \(name)".utf8), to: folder + "/" + name) }
        try tmux.run("'\(binary)' --url '\(receiver.baseURL)/upload' -H 'Authorization: Bearer wrong-token' '\(folder)'; "
                     + "echo FERRY-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("c.txt") }
        try tmux.send("Space", "Space", "Space")
        try await tmux.waitFor("three selected") { $0.contains("sel 3") }
        try tmux.send("u", literally: true)
        let asked = try await tmux.waitFor("the question") { $0.contains("needs credentials (401)") && $0.contains("Enter save") }
        #expect(asked.contains("Authorization:"), "the header's editor is open: \(asked)")
        #expect(!asked.contains(" done "), "nothing was accepted: \(asked)")
        try tmux.send("Bearer right-token", literally: true)
        let typed = try await tmux.waitFor("the typed value, masked") { $0.contains("Authorization:" + String(repeating: "•", count: 19)) }
        #expect(!typed.contains("right-token"), "\(typed)")
        try tmux.send("Enter")
        try await tmux.waitFor("three done") { $0.contains("done 3 failed 0") }
        try tmux.send("3", literally: true)
        let done = try await tmux.waitFor("three done rows") { screen in
            screen.components(separatedBy: "\n").filter { $0.hasPrefix("✓") && $0.contains(" done ") }.count == 3
        }
        #expect(!done.contains("needs credentials"), "\(done)")
        #expect(receiver.savedContents().count == 3)
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
    }
}
