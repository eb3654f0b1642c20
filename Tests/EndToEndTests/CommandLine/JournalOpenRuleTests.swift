import Foundation
import Receiver
import TestSupport
import Testing
import UploadModel

/// One rule in every command: a journal that cannot be opened is an error (exit 1, nothing
/// sent), and the message says what is wrong with it and what to do.
@Suite("A journal that cannot be opened (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct JournalOpenRuleTests {
    @Test("a damaged journal: ferry send, ferry jobs and --resume exit 1, send nothing, and say to move the file aside",
          arguments: [["send"], ["jobs"], ["send", "--resume"]])
    func damagedJournal(command: [String]) async throws {
        let dir = TemporaryDirectory()
        let state = dir.path("state")
        try FileManager.default.createDirectory(atPath: state + "/ferry", withIntermediateDirectories: true)
        try TestFile.write(Array(repeating: 0x5A, count: 8192), to: state + "/ferry/journal.sqlite")
        let file = dir.file("a.txt", bytes: 5)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("r"))) { server in
            let arguments = command == ["send"] ? command + ["--url", server.baseURL + "/upload", file] : command
            let process = try FerryProcess(arguments, stateHome: state)
            #expect(try await process.exitStatus() == 1, "\(process.errorText)")
            #expect(process.errorText.contains("the file is damaged: move it aside (mv "), "\(process.errorText)")
            #expect(!process.errorText.contains("permissions"), "not a permission problem: \(process.errorText)")
            #expect(server.receivedUploads.isEmpty, "nothing is sent unrecorded")
        }
    }

    @Test("the words tell a damaged file, a full disk and refused permissions apart")
    func advice() {
        typealias Reason = UploadError.JournalReason
        let damaged = Reason.openFailed(path: "/s/j.sqlite", message: "file is not a database").description
        let full = Reason.writeFailed(message: "database or disk is full").description
        let denied = Reason.openFailed(path: "/s/j.sqlite", message: "cannot create /s: Permission denied").description
        #expect(damaged.contains("damaged") && damaged.contains("mv /s/j.sqlite /s/j.sqlite.damaged"), "\(damaged)")
        #expect(full.contains("full: free some space"), "\(full)")
        #expect(denied.contains("owner and permissions"), "\(denied)")
        #expect(!damaged.contains("permissions") && !full.contains("permissions"))
    }
}
