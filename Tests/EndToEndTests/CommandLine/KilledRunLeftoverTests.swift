import Foundation
import Glibc
import TestSupport
import Testing
@testable import UploadJournal

/// What a killed run leaves in the state folder.
@Suite("A killed run's leftovers (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct KilledRunLeftoverTests {
    @Test("a fresh ferry send after a kill -9 reads the killed run's marks into its rows: no marks file is left")
    func marksAbsorbed() async throws {
        let dir = TemporaryDirectory()
        let files = (0..<40).map { dir.file("m\($0).bin", bytes: 2_000) }
        let state = dir.path("state")
        let server = try await SpawnedReceiver.start(["--delay", "2000"])
        defer { server.terminate() }
        let killed = try FerryProcess(["send", "--json", "--concurrency", "4", "--url", server.uploadURL] + files, stateHome: state)
        #expect(try await killed.wait(upTo: .seconds(20)) { _ in !((try? server.savedNames()) ?? []).isEmpty })
        killed.signal(SIGKILL)
        _ = try await killed.exitStatus(within: .seconds(10))
        let folder = state + "/ferry"
        func marksFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains("-marks-") }
        }
        let left = marksFiles()
        try #require(left.count == 1, "the killed run left its marks: \(left)")
        let fresh = try FerryProcess(["send", "--url", server.uploadURL, dir.file("later.bin", bytes: 10)], stateHome: state)
        #expect(try await fresh.exitStatus(within: .seconds(30)) == 0, "\(fresh.errorText)")
        let after = marksFiles()
        #expect(after.isEmpty, "\(after)")
        let rows = try UploadJournal(path: folder + "/journal.sqlite").allJobs()
        #expect(rows.contains { $0.lastError == .transferFailed(reason: .interruptedAfterSending) },
                "the marks were read into the rows: \(rows.map(\.state))")
    }
}
