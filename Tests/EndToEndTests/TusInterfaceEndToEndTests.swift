import Glibc
import Foundation
import Synchronization
import TestSupport
import Testing
import UploadProtocols

/// The interface (the built binary in tmux, as uid 65534) uploading with tus to a throttled
/// `ferry serve`, killed with SIGKILL mid-upload and started again: the job comes back and goes
/// on from the server's offset.
@Suite("tus through the interface, killed and restarted", .serialized, .timeLimit(.minutes(3)))
struct TusInterfaceEndToEndTests {
    /// 24 MiB: six of the default 4 MiB chunks, about 6 s at the server's 4 MB/s.
    static let size = 24 << 20
    static let chunk = Int(TusUploadPlan.defaultChunkSize)

    /// The body bytes of `ferry serve`'s tus requests (the creation's first chunk and the PATCHes)
    /// in `lines`, those it answered as stored (201, 204) or all.
    static func tusBytes(_ lines: some Sequence<[String: Any]>, storedOnly: Bool) -> Int {
        lines.filter { ["POST", "PATCH"].contains($0["method"] as? String) && $0["path"] as? String != "/upload" }
            .filter { !storedOnly || [201, 204].contains($0["status"] as? Int) }
            .compactMap { $0["bytes"] as? Int }.reduce(0, +)
    }

    @Test("kill -9 of the interface past 40 % of a tus upload, then a restart: the exact file, no second creation, at most the rest plus one chunk sent again")
    func killedAndRestarted() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(["--throttle", "4M"])
        let tmux = try TmuxSession()
        defer { tmux.kill(); receiver.terminate() }
        let source = tmux.scratch.path + "/src"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        let content = (0..<Self.size).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ 11) >> 13) }
        try TestFile.write(content, to: source + "/large.bin")

        // The second start follows the killed one in the same shell line, as a user would start
        // it again; `stty sane` undoes the raw mode the killed interface left.
        try tmux.run("'\(binary)' --url '\(receiver.baseURL)/files/' '\(source)'; stty sane; "
                     + "'\(binary)' '\(source)'; echo FERRY-\"\"EXITED $?")
        try await tmux.waitFor("the folder") { $0.contains("large.bin") }
        try tmux.send("2", literally: true)
        try await tmux.waitFor("the form") { $0.contains("Protocol     multipart/form-data") }
        try tmux.send("Down", "Down", "Down", "Down", "Enter")
        try await tmux.waitFor("the tus protocol") { $0.contains("Protocol     tus") }
        try tmux.send("1", literally: true)
        try tmux.send("Space")
        try await tmux.waitFor("the file selected") { $0.contains("sel 1") }
        try tmux.send("u", literally: true)

        // Past 40 % by what the server holds, not by a clock; killed by the watching thread at once
        // (a cooperative thread can be held by other tests for longer than the upload lasts).
        let killed = Mutex<[Int32]>([])
        let past = await ThreadPoll.act(within: .seconds(60), when: {
            Self.tusBytes(receiver.logLines, storedOnly: true) > Self.size * 2 / 5
        }) {
            let interfaces = (try? tmux.foregroundChildren()) ?? []
            for pid in interfaces { kill(pid, SIGKILL) }
            killed.withLock { $0 = interfaces }
        }
        #expect(past, "the server never held 40 %")
        let interfaces = killed.withLock { $0 }
        #expect(interfaces.count == 1, "expected the interface as the shell's only child, got \(interfaces)")
        let killedAt = receiver.logLines
        let offset = Self.tusBytes(killedAt, storedOnly: true)
        #expect(offset < Self.size, "killed before the end")

        // The restarted interface holds the unfinished job until `p`.
        try await tmux.waitFor("the restarted interface") { screen in
            let children = (try? tmux.foregroundChildren()) ?? []
            return children.count == 1 && children != interfaces && screen.contains("large.bin")
        }
        try tmux.send("3", literally: true)
        try await tmux.waitFor("the job, held") { $0.contains("held (p)") }
        try tmux.send("p", literally: true)
        try await tmux.waitFor("the server to hold the file", timeout: 90) { _ in
            receiver.savedContents().contains(Data(content))
        }
        try await tmux.waitFor("the job done") { $0.contains(" done ") }
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }

        let lines = receiver.logLines
        let creations = lines.filter { $0["method"] as? String == "POST" && $0["path"] as? String != "/upload" }
        #expect(creations.count == 1, "one upload created, none after the restart: \(creations.count)")
        let sentAgain = Self.tusBytes(lines.dropFirst(killedAt.count), storedOnly: false)
        #expect(sentAgain <= Self.size - offset + Self.chunk, "sent \(sentAgain) after the restart from \(offset)")
        #expect(sentAgain > 0)
    }
}
