import Foundation
import TestSupport
import Testing

/// The interface (`ferry` in tmux) against an endpoint that asks for a pause with `Retry-After`
/// (`Tests/Interop/retry_after_server.py`).
@Suite("Endpoint pauses in the interface", .serialized, .timeLimit(.minutes(2)))
struct EndpointPauseInterfaceTests {
    @Test("a 429 with Retry-After shows the endpoint paused in the status line, counting down; then every upload is done")
    func retryAfterCountsDown() async throws {
        let binary = try FerryBinary.requirePath()
        // Twelve seconds: a runner loaded enough to look at the screen less often than the pause
        // lasts would otherwise never see it (seen once, at 6 s, in a full run on 2 cores).
        let server = try PythonScriptServer.askingForPause(retryAfter: 12)
        let tmux = try TmuxSession(width: 120, height: 30)
        defer { tmux.kill(); server.stop() }
        let folder = tmux.scratch.path + "/files"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["a.txt", "b.txt"] { try TestFile.write(Array("content of \(name)".utf8), to: folder + "/" + name) }
        try tmux.run("'\(binary)' --url 'http://127.0.0.1:\(server.port)/upload' '\(folder)'; echo FERRY-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("b.txt") }
        try tmux.send("Space", "Space")
        try await tmux.waitFor("two selected") { $0.contains("sel 2") }
        try tmux.send("u", literally: true)
        let endpoint = "http://127.0.0.1:\(server.port)"
        let seconds = { (screen: String) in
            screen.firstMatch(of: /paused (\d+) s \(429\)/).flatMap { Int($0.1) }
        }
        // The pause, then a smaller number before it ends (one first seen at 1 s can only end), in
        // one watch: a test waiting between two watches for a runner's thread could miss the
        // whole countdown (seen once, in a release pass on 2 cores).
        var first: String?
        let later = try await tmux.waitFor("the pause, then its countdown", timeout: 40) { screen in
            guard let seen = first else {
                guard screen.contains("\(endpoint) paused ") else { return false }
                first = screen
                return seconds(screen) == nil
            }
            guard let shown = seconds(seen) else { return true }
            return seconds(screen).map { $0 < shown } ?? !screen.contains("paused")
        }
        let firstScreen = try #require(first)
        let shown = try #require(seconds(firstScreen), "\(firstScreen)")
        #expect((1...12).contains(shown), "\(firstScreen)")
        if shown > 1 { #expect(seconds(later).map { $0 >= 0 && $0 < shown } == true, "\(later)") }
        try await tmux.waitFor("both done, the pause gone", timeout: 40) { $0.contains("done 2") && !$0.contains("paused") }
        let requests = try await server.lines(atLeast: 3, where: { $0.hasPrefix("REQUEST ") })
        #expect(requests.count == 3, "two files and the retry: \(server.lines)")
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
    }
}
