import Foundation
import TestSupport
import Testing

/// Keys typed in one burst, and Ctrl-Z / `fg`, with the built binary in tmux.
@Suite("Type-ahead and suspend end to end", .serialized, .timeLimit(.minutes(2)))
struct TypeAheadAndSuspendEndToEndTests {
    /// A folder `top/` with `sub/` (holding `inside-sub.txt`) and a file, in the session's scratch.
    private func makeTree(in tmux: TmuxSession) throws -> String {
        let top = tmux.scratch.appendingPathComponent("top")
        let sub = top.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try TestFile.write(Array("x".utf8), to: sub.appendingPathComponent("inside-sub.txt").path)
        try TestFile.write(Array("y".utf8), to: top.appendingPathComponent("top-file.txt").path)
        return top.path
    }

    @Test("l h l sent as one write ends in the subfolder")
    func openUpOpenInOneWrite() async throws {
        let binary = try FerryBinary.requirePath()
        let tmux = try TmuxSession(width: 80, height: 24)
        defer { tmux.kill() }
        let top = try makeTree(in: tmux)
        try tmux.run("'\(binary)' --url http://127.0.0.1:9/u '\(top)'; echo FERRY-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("top-file.txt") }
        try tmux.send("lhl", literally: true)
        let screen = try await tmux.waitFor("the subfolder") { $0.contains("inside-sub.txt") && !$0.contains("top-file.txt") }
        #expect(screen.contains("top/sub"), "\(screen)")
        try tmux.send("hh", literally: true)
        try await tmux.waitFor("two levels up") { $0.contains("top/") && !$0.contains("top-file.txt") }
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
    }

    @Test("Ctrl-Z gives the terminal back to the shell and stops ferry; fg brings the screen back, and fg's keys never reach it")
    func controlZAndForeground() async throws {
        let binary = try FerryBinary.requirePath()
        let tmux = try TmuxSession(width: 80, height: 24)
        defer { tmux.kill() }
        let top = try makeTree(in: tmux)
        // Job control on, surely: a shell that started before its pane's terminal was ready turns
        // it off ("can't access tty"), runs ferry in its own process group, and the kernel then
        // refuses to stop that orphaned group.
        try tmux.run("set -m")
        try tmux.run("stty -a > '\(tmux.scratch.path)/before.txt'")
        try tmux.run("'\(binary)' --url http://127.0.0.1:9/u '\(top)'")
        try await tmux.waitFor("the browser") { $0.contains("top-file.txt") }
        try tmux.send("C-z")
        let shell = try await tmux.waitFor("the shell") { $0.contains("Stopped") }
        #expect(try !tmux.isAlternateScreen(), "the main screen is back while ferry is stopped")
        #expect(!shell.contains("top-file.txt") || shell.contains("Stopped"))
        try tmux.run("stty -a > '\(tmux.scratch.path)/stopped.txt'")
        try tmux.run("fg")
        try await tmux.waitFor("the interface again") { $0.contains("top-file.txt") && $0.contains("1 Files") }
        #expect(try tmux.isAlternateScreen())
        // fg's letters went to the shell: the filter is not open, nothing typed shows.
        let back = try tmux.capture()
        #expect(!back.contains("filter: "), "\(back)")
        try tmux.send("q", literally: true)
        try await tmux.waitFor("the shell after quitting") { !$0.contains("top-file.txt") }
        try tmux.run("stty -a > '\(tmux.scratch.path)/after.txt'; echo STTY-\"\"SAVED")
        try await tmux.waitFor("stty") { $0.contains("STTY-SAVED") }
        func settings(_ name: String) throws -> String {
            try String(contentsOfFile: tmux.scratch.path + "/" + name, encoding: .utf8)
                .replacingOccurrences(of: #"rows \d+; columns \d+;"#, with: "", options: .regularExpression)
        }
        #expect(try settings("before.txt") == settings("stopped.txt"), "the terminal is the shell's while ferry is stopped")
        #expect(try settings("before.txt") == settings("after.txt"))
    }
}
