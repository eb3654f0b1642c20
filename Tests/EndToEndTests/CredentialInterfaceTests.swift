import Foundation
import TestSupport
import Testing

/// The interface (`ferry` in tmux) given credentials on its command line.
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
}
