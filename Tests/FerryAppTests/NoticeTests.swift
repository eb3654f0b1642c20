import FerryApp
import Foundation
import TerminalUI
import Testing
import UploadModel

/// What the status line says: notices, how long they stay, the queue's counters.
@Suite("Notices and the status line")
struct NoticeTests {
    @Test("queueing into a paused queue says p starts it; queueing a file already queued to this URL warns")
    func queueingWarns() {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid)
        app.type("jj u")
        #expect(app.state.notice == nil)
        app.type("1gjj u")
        #expect(app.state.notice?.contains("1 of these file(s) were already queued or sent to this URL") == true,
                "\(app.state.notice ?? "")")
        app.type("3p1gjj u")
        #expect(app.state.notice?.contains("the queue is paused: p starts it") == true, "\(app.state.notice ?? "")")
    }

    @Test("a notice gives the URL back after a few seconds; the concurrency shows with the active count")
    func noticeExpiresAndConcurrencyShows() {
        var app = AppFixtures.app([UploadJob(id: 1, spec: AppFixtures.spec("a"), state: .uploading, attempts: 1)])
        app.send(.clockTicked(SchedulerInstant(nanoseconds: 1_000_000_000)))
        app.type("+")
        var status = AppFixtures.statusLine(app.screen(width: 100, height: 24))
        #expect(status.contains("concurrency 5"), "\(status)")
        #expect(status.contains("active 1/5"), "\(status)")
        app.send(.clockTicked(SchedulerInstant(nanoseconds: 7_000_000_000)))
        status = AppFixtures.statusLine(app.screen(width: 100, height: 24))
        #expect(status.contains("→ http://127.0.0.1:9/upload"), "\(status)")
    }

    @Test("a tab in a file name shows escaped in an error, as in the list")
    func tabInAnError() {
        var app = AppHarness(directories: AppUpdateTests.tree)
        app.send(.commandFailed("could not queue: a\tb.txt cannot be read"))
        let status = AppFixtures.statusLine(app.screen())
        #expect(status.contains("a\\tb.txt") || status.contains("a\\x09b.txt"), "\(status)")
    }
}
