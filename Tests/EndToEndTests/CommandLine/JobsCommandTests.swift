import Foundation
import Receiver
import TestSupport
import Testing

/// What `ferry send` leaves in the journal is found and shown truly by later commands, whichever
/// folder they run in: paths are journaled absolute, and `ferry jobs` escapes what it prints.
@Suite("The journal's jobs from anywhere, shown as they are (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct JobsCommandTests {
    @Test("files queued by relative paths in one folder are sent by --resume run from /")
    func resumeFromAnotherFolder() async throws {
        let dir = TemporaryDirectory()
        let work = dir.path("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try TestFile.write(Array("alpha".utf8), to: work + "/a.txt")
        try TestFile.write(Array("beta!".utf8), to: work + "/b.txt")
        let state = dir.path("state")
        // Each file's first attempt is answered 500 (`--retry 0`: failed, a retry can mend it), so
        // the same URL serves both runs and no port has to be let go and taken again.
        let configuration = ReceiverConfiguration(port: 0, directory: dir.path("received"), faults: FaultPlan(failFirst: 1))
        try await withRunningReceiver(configuration) { server in
            let first = try FerryProcess(["send", "--retry", "0", "--url", server.baseURL + "/upload", "a.txt", "./b.txt"],
                                         stateHome: state, currentDirectory: work)
            #expect(try await first.exitStatus() == 1, "both answered 500: failed, to be resumed")
            let jobs = try FerryProcess(["jobs", "--json"], stateHome: state, currentDirectory: "/")
            #expect(try await jobs.exitStatus() == 0)
            let paths = jobs.jsonEvents.compactMap { $0["path"] as? String }
            #expect(Set(paths) == [work + "/a.txt", work + "/b.txt"], "journaled absolute: \(jobs.outputLines)")
            let resume = try FerryProcess(["send", "--resume"], stateHome: state, currentDirectory: "/")
            #expect(try await resume.exitStatus() == 0, "\(resume.outputLines) \(resume.errorText)")
            #expect(resume.outputLines.last?.hasPrefix("2 succeeded, 0 failed") == true, "\(resume.outputLines)")
        }
        let received = try FileManager.default.contentsOfDirectory(atPath: dir.path("received")).filter { !$0.hasPrefix(".") }
        #expect(Set(received) == ["a.txt", "b.txt"], "each under its own name, not its absolute path")
    }

    @Test("ferry jobs prints a name's escape sequence and line break escaped, on one line per job")
    func escapesNames() async throws {
        let dir = TemporaryDirectory()
        let name = dir.path("red\u{1B}[31m\nsecond.txt")
        try TestFile.write(Array("x".utf8), to: name)
        let state = dir.path("state")
        let down = try RefusingPort()
        let send = try FerryProcess(["send", "--retry", "0", "--url", "http://127.0.0.1:\(down.port)/upload", name], stateHome: state)
        #expect(try await send.exitStatus() == 1)
        let jobs = try FerryProcess(["jobs"], stateHome: state)
        #expect(try await jobs.exitStatus() == 0)
        #expect(jobs.outputLines.count == 1, "\(jobs.outputLines)")
        let line = try #require(jobs.outputLines.first)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line.debugDescription)")
        #expect(line.contains("second.txt") && line.contains("[31m"), "\(line)")
    }
}
