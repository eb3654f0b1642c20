import Foundation
import TestSupport
import Testing

/// The interface (`ferry` in tmux) queueing a whole folder: each file goes with its path from
/// the folder's parent, as `ferry serve` logs it.
@Suite("Folders in the interface", .serialized, .timeLimit(.minutes(2)))
struct FolderInterfaceTests {
    @Test("Space on a folder selects its visible files; u sends each named photos/…")
    func folderKeepsItsShape() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start()
        let tmux = try TmuxSession(width: 80, height: 24)
        defer { tmux.kill(); receiver.terminate() }
        let dir = TemporaryDirectory()
        _ = try PhotoFolder(in: dir)
        try tmux.run("'\(binary)' --url '\(receiver.uploadURL)' '\(dir.path)'; echo FERRY-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("photos") && $0.contains("outside.txt") }
        try tmux.send("Space")
        try await tmux.waitFor("the folder's files selected") { $0.contains("sel 4") }
        try tmux.send("u", literally: true)
        try await tmux.waitFor("four done") { $0.contains("done 4") }
        let logged = await receiver.logLines(atLeast: 4).filter { ($0["status"] as? Int) == 200 }
        let names = logged.flatMap { ($0["files"] as? [[String: Any]] ?? []).compactMap { $0["filename"] as? String } }
        #expect(names.sorted() == PhotoFolder.visibleNames)
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
    }
}
