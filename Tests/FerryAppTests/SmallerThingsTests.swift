import FerryApp
import Foundation
import Multipart
import TerminalUI
import Testing
import Uploading

/// The smaller things of a first user's tour (issue 29), one test each.
@Suite("App update: smaller things")
struct SmallerThingsTests {
    static func spec(_ name: String, url: String = "http://127.0.0.1:9/upload", size: Int64 = 1000) -> UploadJobSpec {
        UploadJobSpec(url: url, files: [QueuedFile(path: "/d/" + name, size: size, modificationTimeNanoseconds: 0)])
    }

    static func app(_ jobs: [UploadJob], size: Size = Size(width: 100, height: 24)) -> AppHarness {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid, size: size)
        for job in jobs { app.send(.uploadEventReceived(.queued(job))) }
        app.type("3")
        return app
    }

    @Test("a queue where everything failed or was cancelled does not show 100 %; a cancelled row's bar is empty")
    func failuresAreNotProgress() {
        let refused = UploadError.serverRejected(status: 500, retryAfter: nil)
        let app = Self.app([
            UploadJob(id: 1, spec: Self.spec("a"), state: .failed, attempts: 1, lastError: refused),
            UploadJob(id: 2, spec: Self.spec("b"), state: .cancelled, progress: UploadProgress(bytesSent: 1000, totalBytes: 1000)),
        ])
        let lines = app.screen(width: 100, height: 24).lines()
        #expect(!lines[22].contains("100%"), "\(lines[22])")
        #expect(lines[22].contains("0%"), "\(lines[22])")
        let cancelled = lines.first { $0.contains("b ") && $0.contains("cancelled") } ?? ""
        #expect(!cancelled.contains("100%") && !cancelled.contains("█"), "\(cancelled)")
    }

    @Test("the quit question pauses the queue while it waits; staying lets it run again")
    func quitQuestionHoldsTheQueue() {
        var app = Self.app([UploadJob(id: 1, spec: Self.spec("a"), state: .queued)])
        let asked = app.type("q")
        #expect(asked == [.setPaused(true)])
        #expect(app.state.confirmation != nil)
        #expect(app.press(.escape) == [.setPaused(false)])
        app.type("p")
        #expect(app.state.queue.isPaused)
        #expect(app.type("q").isEmpty, "a queue the user paused is not paused again")
        #expect(app.press(.escape).isEmpty, "and stays paused after staying")
    }

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

    @Test("a folder part of which is selected looks partly selected, with a count; one selected whole shows ✓")
    func partlySelectedFolder() {
        var app = AppHarness(directories: AppUpdateTests.tree)
        app.collections["/data/photos"] = FileCollection(directory: "/data/photos", files: [
            QueuedFile(path: "/data/photos/a.png", size: 10, modificationTimeNanoseconds: 0),
            QueuedFile(path: "/data/photos/b.png", size: 20, modificationTimeNanoseconds: 0),
        ])
        app.type("j ")
        #expect(app.screen().lines().contains { $0.hasPrefix("✓ photos/") })
        app.type("kl ")
        app.press(.backspace)
        let row = app.screen().lines().first { $0.contains("photos/") } ?? ""
        #expect(row.hasPrefix("◐ photos/ (1 selected)"), "\(row)")
    }

    @Test("a notice gives the URL back after a few seconds; the concurrency shows with the active count")
    func noticeExpiresAndConcurrencyShows() {
        var app = Self.app([UploadJob(id: 1, spec: Self.spec("a"), state: .uploading, attempts: 1)])
        app.send(.clockTicked(SchedulerInstant(nanoseconds: 1_000_000_000)))
        app.type("+")
        var status = app.screen(width: 100, height: 24).lines()[22]
        #expect(status.contains("concurrency 5"), "\(status)")
        #expect(status.contains("active 1/5"), "\(status)")
        app.send(.clockTicked(SchedulerInstant(nanoseconds: 7_000_000_000)))
        status = app.screen(width: 100, height: 24).lines()[22]
        #expect(status.contains("→ http://127.0.0.1:9/upload"), "\(status)")
    }

    @Test("two jobs of the same name to two endpoints are told apart by where they go")
    func sameNameTwoEndpoints() {
        let app = Self.app([UploadJob(id: 1, spec: Self.spec("same.txt", url: "http://one.test/up")),
                            UploadJob(id: 2, spec: Self.spec("same.txt", url: "http://two.test:8080/in"))])
        let lines = app.screen(width: 100, height: 24).lines()
        #expect(lines.contains { $0.contains("same.txt → one.test/up") }, "\(lines)")
        #expect(lines.contains { $0.contains("same.txt → two.test:8080/in") }, "\(lines)")
        let single = Self.app([UploadJob(id: 1, spec: Self.spec("same.txt"))])
        #expect(!single.screen(width: 100, height: 24).lines().contains { $0.contains("→ ") && $0.contains("same.txt") })
    }

    @Test("f goes to the next failure, wrapping; D removes every failed job")
    func nextFailureAndRemoveFailed() {
        let refused = UploadError.serverRejected(status: 500, retryAfter: nil)
        var app = Self.app([
            UploadJob(id: 1, spec: Self.spec("a"), state: .failed, attempts: 1, lastError: refused),
            UploadJob(id: 2, spec: Self.spec("b"), state: .succeeded, attempts: 1),
            UploadJob(id: 3, spec: Self.spec("c"), state: .failed, attempts: 1, lastError: refused),
        ])
        app.type("f")
        #expect(app.state.queue.current?.id == 3)
        app.type("f")
        #expect(app.state.queue.current?.id == 1)
        let removed = app.type("D")
        #expect(removed == [.remove(1), .remove(3)])
        #expect(app.state.queue.order == [2])
    }

    @Test("the Form: deleting the last parameter leaves the cursor on a parameter, not on + parameter")
    func deleteLastParameter() {
        var settings = AppUpdateTests.valid
        settings.parameters = [FormRow(name: "a", value: "1"), FormRow(name: "b", value: "2")]
        var app = AppHarness(directories: AppUpdateTests.tree, settings: settings)
        app.type("2")
        let fields = app.state.form.fields
        app.state.form.scroll.select(fields.firstIndex(of: .parameter(1))!)
        app.type("d")
        #expect(app.state.form.currentField == .parameter(0))
    }

    @Test("the Form refuses `noequals` as a parameter and `NoColon` as a header, saying why, and keeps the editor open")
    func malformedRowsAreRefused() {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid)
        app.type("2")
        app.state.form.scroll.select(app.state.form.fields.firstIndex(of: .newParameter)!)
        app.press(.enter)
        app.type("noequals")
        let commands = app.press(.enter)
        #expect(commands.isEmpty)
        #expect(app.state.form.editing != nil)
        #expect(app.state.notice?.contains("name=value") == true)
        app.type("=")
        app.press(.enter)
        #expect(app.state.form.settings.parameters == [FormRow(name: "noequals", value: "")])
        app.state.form.scroll.select(app.state.form.fields.firstIndex(of: .newHeader)!)
        app.press(.enter)
        app.type("NoColon")
        app.press(.enter)
        #expect(app.state.form.editing != nil)
        #expect(app.state.notice?.contains("Name: value") == true)
        app.press(.escape)
        #expect(app.state.form.settings.headers.isEmpty)
    }

    @Test("u with an invalid form row moves to that row in the Form")
    func invalidRowIsShown() {
        var settings = AppUpdateTests.valid
        settings.headers = [FormRow(name: "Bad Name", value: "x")]
        var app = AppHarness(directories: AppUpdateTests.tree, settings: settings)
        app.type("jj u")
        #expect(app.state.focus == .form)
        #expect(app.state.form.currentField == .header(0))
        #expect(app.state.notice != nil)
    }

    @Test("a tab in a file name shows escaped in an error, as in the list")
    func tabInAnError() {
        var app = AppHarness(directories: AppUpdateTests.tree)
        app.send(.commandFailed("could not queue: a\tb.txt cannot be read"))
        let status = app.screen().lines()[18]
        #expect(status.contains("a\\tb.txt") || status.contains("a\\x09b.txt"), "\(status)")
    }
}

extension SmallerThingsTests {
    @Test("editing a secret header masks its value, not its name")
    func secretHeaderNameShows() {
        var settings = AppUpdateTests.valid
        settings.headers = [FormRow(name: "Authorization", value: "Bearer s3cret")]
        var app = AppHarness(directories: AppUpdateTests.tree, settings: settings)
        app.type("2")
        app.state.form.scroll.select(app.state.form.fields.firstIndex(of: .header(0))!)
        app.press(.enter)
        let row = app.screen(width: 100, height: 24).lines().first { $0.hasPrefix("Header") } ?? ""
        #expect(row.contains("Authorization:"), "\(row)")
        #expect(!row.contains("s3cret") && row.contains("•"), "\(row)")
    }
}
