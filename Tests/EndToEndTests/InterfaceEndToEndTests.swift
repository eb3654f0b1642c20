import Glibc
import Foundation
import TestSupport
import Testing
import UploadModel
import UploadJournal

/// The built `ferry` binary in tmux against a real `ferry serve` subprocess.
@Suite("Interface end to end", .serialized, .timeLimit(.minutes(2)))
struct InterfaceEndToEndTests {
    /// Three files to send (and one not to), in `batch/` of a fresh folder.
    struct Sources {
        let root: URL
        let files: [String: Data]

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-e2e-src-\(UUID().uuidString)")
            let batch = root.appendingPathComponent("batch")
            try FileManager.default.createDirectory(at: batch, withIntermediateDirectories: true)
            var files: [String: Data] = [:]
            for (index, name) in ["one.txt", "two.bin", "three 三.txt"].enumerated() {
                let data = Data((0..<(150_000 + index * 1000)).map { UInt8(truncatingIfNeeded: $0 &* (index + 7)) })
                try TestFile.write(data, to: batch.appendingPathComponent(name).path)
                files[name] = data
            }
            try TestFile.write(Array("not me".utf8), to: batch.appendingPathComponent("zz-unselected.txt").path)
            self.files = files
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// Starts ferry in the pane (between two `stty -a` snapshots), opens `batch/` and selects
    /// its first three files.
    private func startAndSelectThree(_ tmux: TmuxSession, binary: String, url: String, sources: Sources,
                                     extra: String = "") async throws {
        let scratch = tmux.scratch.path
        try tmux.run("stty -a > \(scratch)/before.txt; '\(binary)' --url '\(url)' \(extra) '\(sources.root.path)'; "
                     + "status=$?; stty -a > \(scratch)/after.txt; echo FERRY-\"\"EXITED $status")
        try await tmux.waitFor("the browser") { $0.contains("batch/") }
        try tmux.send("l", literally: true)
        try await tmux.waitFor("the batch folder") { $0.contains("zz-unselected.txt") }
        try tmux.send("Space", "Space", "Space")
        try await tmux.waitFor("three selected") { $0.contains("sel 3") }
    }

    /// Runs `body` with ferry started in tmux against a fresh `ferry serve` (given
    /// `receiverArguments`), `batch/` open and its first three files selected; the receiver,
    /// tmux and the files are stopped and removed afterwards.
    private func withThreeSelected(receiverArguments: [String] = [], extra: String = "",
                                   _ body: (TmuxSession, SpawnedReceiver, Sources) async throws -> Void) async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(receiverArguments)
        let tmux = try TmuxSession()
        let sources = try Sources()
        defer { tmux.kill(); receiver.terminate(); sources.remove() }
        try await startAndSelectThree(tmux, binary: binary, url: receiver.baseURL + "/upload", sources: sources, extra: extra)
        try await body(tmux, receiver, sources)
    }

    /// Rows of the queue that show a finished upload.
    private func doneRows(_ screen: String) -> Int {
        screen.components(separatedBy: "\n").filter { $0.hasPrefix("✓") && $0.contains(" done ") }.count
    }

    private func quitAndCheckTerminal(_ tmux: TmuxSession, quit: () async throws -> Void = {}) async throws {
        try await quit()
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
        // The window size may differ (a test resizes it); every other setting must be back.
        func settings(_ name: String) throws -> String {
            try String(contentsOfFile: tmux.scratch.path + "/" + name, encoding: .utf8)
                .replacingOccurrences(of: #"rows \d+; columns \d+;"#, with: "", options: .regularExpression)
        }
        #expect(try settings("before.txt") == settings("after.txt"), "stty settings differ after quitting")
        #expect(try !tmux.isAlternateScreen(), "the main screen is not back")
    }

    @Test func uploadsThreeFilesWithAParameter() async throws {
        try await withThreeSelected { tmux, receiver, sources in
            try tmux.send("2", "n", literally: false)
            try tmux.send("note=hello", literally: true)
            try tmux.send("Enter")
            try await tmux.waitFor("the parameter row") { $0.contains("note=hello") }
            try tmux.send("u", literally: true)
            let screen = try await tmux.waitFor("three done rows") { screen in
                doneRows(screen) == 3
            }
            for name in ["one.txt", "two.bin", "three 三.txt"] {
                #expect(screen.contains(name), "\(name) missing from the queue")
            }
            #expect(screen.contains("done 3"))
            #expect(Set(receiver.savedContents()) == Set(sources.files.values))
            let logged = await receiver.logLines(atLeast: 3).filter { ($0["status"] as? Int) == 200 }
            #expect(logged.count == 3)
            for line in logged {
                let fields = line["fields"] as? [String: [String]]
                #expect(fields?["note"] == ["hello"])
            }
            try await quitAndCheckTerminal(tmux) { try tmux.send("q", literally: true) }
        }
    }

    @Test func failedRowsShowTheStatusAndRetryAllFinishesThem() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(["--fail-first", "1"])
        let tmux = try TmuxSession()
        let sources = try Sources()
        defer { tmux.kill(); receiver.terminate(); sources.remove() }

        try await startAndSelectThree(tmux, binary: binary, url: receiver.baseURL + "/upload", sources: sources,
                                extra: "--retry 0")
        try tmux.send("u", literally: true)
        try await tmux.waitFor("three failed rows") { screen in
            screen.components(separatedBy: "\n").filter { $0.contains("HTTP 500") }.count == 3
        }
        try tmux.send("R", literally: true)
        try await tmux.waitFor("three done rows") { screen in
            doneRows(screen) == 3
        }
        #expect(Set(receiver.savedContents()) == Set(sources.files.values))
        try tmux.send("Enter")
        try await tmux.waitFor("both attempts in the details") { screen in
            let lines = screen.components(separatedBy: "\n")
            let stamp = #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"#
            return lines.contains { $0.range(of: "^#1 \(stamp) ✗ the server answered 500", options: .regularExpression) != nil }
                && lines.contains { $0.range(of: "^#2 \(stamp) ✓ HTTP 20\\d", options: .regularExpression) != nil }
        }
        try tmux.send("Escape")
        try await quitAndCheckTerminal(tmux) { try tmux.send("q", literally: true) }
    }

    @Test("the folder shown follows the disk: a new file appears and a renamed one updates without a key, and `a` takes them")
    func folderChangesShowWithoutAKey() async throws {
        try await withThreeSelected { tmux, _, sources in
            let batch = sources.root.appendingPathComponent("batch")
            try TestFile.write(Array("late".utf8), to: batch.appendingPathComponent("arrived-later.txt").path)
            try FileManager.default.moveItem(at: batch.appendingPathComponent("zz-unselected.txt"),
                                             to: batch.appendingPathComponent("zz-renamed.txt"))
            try await tmux.waitFor("the new and the renamed file") { screen in
                screen.contains("arrived-later.txt") && screen.contains("zz-renamed.txt") && !screen.contains("zz-unselected.txt")
            }
            try tmux.send("a", literally: true)
            try await tmux.waitFor("all five selected") { $0.contains("sel 5") }
            try await quitAndCheckTerminal(tmux) { try tmux.send("q", literally: true) }
        }
    }

    @Test func survivesResizesMidUpload() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(["--delay", "1500"])
        let tmux = try TmuxSession()
        let sources = try Sources()
        defer { tmux.kill(); receiver.terminate(); sources.remove() }

        try await startAndSelectThree(tmux, binary: binary, url: receiver.baseURL + "/upload", sources: sources,
                                extra: "--concurrency 1")
        try tmux.send("u", literally: true)
        try await tmux.waitFor("an active upload") { $0.contains("active 1") }
        try tmux.resize(width: 30, height: 10)
        try await tmux.waitFor("the too-small message") { $0.contains("too small") }
        try tmux.resize(width: 60, height: 16)
        try await tmux.waitFor("the queue at 60 columns") { $0.contains("Queue") }
        try tmux.resize(width: 120, height: 40)
        try await tmux.waitFor("three done rows", timeout: 30) { screen in
            doneRows(screen) == 3
        }
        try await quitAndCheckTerminal(tmux) { try tmux.send("q", literally: true) }
    }

    @Test func quittingWhileUploadingAsksAndTheJobsComeBack() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(["--delay", "30000"])
        let tmux = try TmuxSession()
        let sources = try Sources()
        defer { tmux.kill(); receiver.terminate(); sources.remove() }

        try await startAndSelectThree(tmux, binary: binary, url: receiver.baseURL + "/upload", sources: sources)
        try tmux.send("u", literally: true)
        try await tmux.waitFor("active uploads") { $0.contains("active 3") }
        try tmux.send("q", literally: true)
        try await tmux.waitFor("the quit question") { $0.contains("Quit?") && $0.contains("s: stop now") }
        try tmux.send("s", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
        #expect(try !tmux.isAlternateScreen())
        // The receiver had the three files (it holds its answers back 30 s). Stopped after
        // sending them, they may have arrived, but each has a resumable upload's URL (each is over
        // 64 KiB), so the server can say: they come back waiting, not as failures to review, and
        // `p` sends them by asking the server first, which holds every whole file: done, without
        // a question and without sending any again.
        try tmux.run("'\(binary)' '\(sources.root.path)'")
        try tmux.send("3", literally: true)
        try await tmux.waitFor("the restored jobs, held") { screen in
            screen.contains("held (p)") && !screen.contains("Earlier failures")
                && ["one.txt", "two.bin", "three 三.txt"].allSatisfy { screen.contains($0) }
        }
        try tmux.send("p", literally: true)
        try await tmux.waitFor("the jobs settled by the server's word") { $0.contains("done 3") && !$0.contains("Send again?") }
        try tmux.send("C-c")
        #expect(receiver.uploadCount == 3, "each file arrived once")
    }

    @Test func quittingLetsTheUploadsInFlightFinishFirst() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(["--delay", "1500"])
        let tmux = try TmuxSession()
        let sources = try Sources()
        defer { tmux.kill(); receiver.terminate(); sources.remove() }

        try await startAndSelectThree(tmux, binary: binary, url: receiver.baseURL + "/upload", sources: sources,
                                extra: "--concurrency 2")
        try tmux.send("u", literally: true)
        try await tmux.waitFor("active uploads") { $0.contains("active 2") }
        try tmux.send("q", literally: true)
        try await tmux.waitFor("the quit question") { $0.contains("Let them finish first") }
        try tmux.send("Enter")
        try await tmux.waitFor("ferry to exit once the two finished", timeout: 30) { $0.contains("FERRY-EXITED 0") }
        #expect(receiver.uploadCount == 2, "the two in flight finished; the third waits for the next start")
        try tmux.run("'\(binary)' '\(sources.root.path)'")
        try tmux.send("3", literally: true)
        try await tmux.waitFor("the waiting job, held") { $0.contains("held (p)") }
        try tmux.send("p", literally: true)
        try await tmux.waitFor("the third upload", timeout: 30) { _ in receiver.uploadCount == 3 }
        try tmux.send("C-c")
    }

    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalMidUploadSavesTheQueueThenEndsByIt(signal: Int32) async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(["--delay", "30000"])
        let tmux = try TmuxSession()
        let sources = try Sources()
        defer { tmux.kill(); receiver.terminate(); sources.remove() }

        try await startAndSelectThree(tmux, binary: binary, url: receiver.baseURL + "/upload", sources: sources)
        try tmux.send("u", literally: true)
        try await tmux.waitFor("active uploads") { $0.contains("active 3") }
        let children = try tmux.foregroundChildren()
        #expect(children.count == 1, "expected ferry as the shell's only child, got \(children)")
        try await quitAndCheckTerminal(tmux) {
            for pid in children { kill(pid, signal) }
        }
        #expect(try tmux.capture().contains("FERRY-EXITED \(128 + signal)"), "ferry did not end by signal \(signal)")
        // The in-flight jobs were stopped and written back before the process ended, not left as
        // the `uploading` rows a process killed mid-write leaves. Their bodies had gone out (the
        // receiver stored them and holds its answer back), so they may have arrived; each has a
        // resumable upload's URL, so the server can say whether it did: queued for the next
        // start, which asks it first, with the reason kept.
        let journal = try UploadJournal(path: tmux.scratch.path + "/state/ferry/journal.sqlite")
        let jobs = try journal.allJobs()
        #expect(jobs.count == 3)
        #expect(jobs.allSatisfy { $0.state == .queued }, "journal states: \(jobs.map(\.state))")
        let stoppedAfterSending = UploadError.transferFailed(reason: .stoppedAfterSending).description
        #expect(jobs.allSatisfy { $0.lastError?.description == stoppedAfterSending }, "\(jobs.map(\.lastError))")
        #expect(jobs.allSatisfy { $0.attempts == 1 })
        #expect(jobs.allSatisfy { $0.attemptHistory.map(\.outcome) == [.interrupted] },
                "history: \(jobs.map(\.attemptHistory))")
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start()
        let tmux = try TmuxSession()
        let sources = try Sources()
        defer { tmux.kill(); receiver.terminate(); sources.remove() }

        try await startAndSelectThree(tmux, binary: binary, url: receiver.baseURL + "/upload", sources: sources)
        let children = try tmux.foregroundChildren()
        #expect(children.count == 1, "expected ferry as the shell's only child, got \(children)")
        try await quitAndCheckTerminal(tmux) {
            for pid in children { kill(pid, SIGTERM) }
        }
    }
}
