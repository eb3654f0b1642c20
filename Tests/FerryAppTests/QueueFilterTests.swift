import FerryApp
import Foundation
import TerminalUI
import Testing
import TextFormat
import UploadModel

/// The Queue pane's filter: by name and by state (`is:failed`), and the keys acting on what it
/// shows.
@Suite("Queue filter")
struct QueueFilterTests {
    static let refused = UploadError.serverRejected(status: 500, retryAfter: nil)

    /// A queue of six jobs: photo-1 (failed), photo-2 (done), notes (failed), photo-3 (queued),
    /// report (cancelled), Photo-4 (failed).
    static func app() -> AppHarness {
        let jobs = [
            UploadJob(id: 1, spec: AppFixtures.spec("photo-1.jpg"), state: .failed, attempts: 1, lastError: refused),
            UploadJob(id: 2, spec: AppFixtures.spec("photo-2.jpg"), state: .succeeded, attempts: 1),
            UploadJob(id: 3, spec: AppFixtures.spec("notes.txt"), state: .failed, attempts: 1, lastError: refused),
            UploadJob(id: 4, spec: AppFixtures.spec("photo-3.jpg"), state: .queued),
            UploadJob(id: 5, spec: AppFixtures.spec("report.pdf"), state: .cancelled, attempts: 1),
            UploadJob(id: 6, spec: AppFixtures.spec("Photo-4.jpg"), state: .failed, attempts: 1, lastError: refused),
        ]
        var app = AppFixtures.app(jobs)
        jobs.forEach { app.engine.adopt($0) }
        return app
    }

    @Test("the filter parses names and is: words; a state is named by any beginning of its name")
    func parsing() {
        let row = { (state: UploadJobState, name: String) in
            QueueRow(UploadJob(id: 1, spec: AppFixtures.spec(name), state: state, attempts: 1))
        }
        #expect(QueueFilter("").isEmpty)
        #expect(QueueFilter("PHOTO").matches(row(.queued, "photo-1.jpg")))
        #expect(!QueueFilter("photo").matches(row(.queued, "notes.txt")))
        #expect(QueueFilter("is:f").matches(row(.failed, "a")) && !QueueFilter("is:f").matches(row(.queued, "a")))
        #expect(QueueFilter("is:failed is:cancelled").matches(row(.cancelled, "a")), "several states: any of them")
        #expect(QueueFilter("is:done photo").matches(row(.succeeded, "photo.jpg")))
        #expect(!QueueFilter("is:done photo").matches(row(.succeeded, "notes.txt")))
        #expect(QueueFilter("my file").matches(row(.queued, "my file.txt")), "the words are looked for together")
        let unknown = QueueFilter("is:broken")
        #expect(unknown.unknownStates == ["is:broken"] && !unknown.matches(row(.failed, "a")))
        let held = QueueRow(UploadJob(id: 1, spec: AppFixtures.spec("a"), state: .queued, isHeld: true))
        #expect(QueueFilter("is:held").matches(held) && !QueueFilter("is:held").matches(row(.queued, "a")))
    }

    @Test("/ opens the editor; typing narrows at once, by name and case-insensitively; Enter keeps the filter, Esc clears it")
    func typingNarrows() {
        var app = Self.app()
        app.type("/")
        #expect(app.state.inputMode == .filterEditor)
        let bar = AppView.render(app.state, size: Size(width: 100, height: 24)).lines().last ?? ""
        #expect(bar.contains("keep filter"), "\(bar)")
        app.type("photo")
        #expect(app.state.queue.shown == [1, 2, 4, 6])
        app.press(.enter)
        #expect(app.state.inputMode == .pane(.queue))
        #expect(app.state.queue.shown == [1, 2, 4, 6])
        let lines = app.screen(width: 100, height: 24).lines()
        #expect(lines.contains { $0.contains("filter: photo") && $0.contains("4 of 6 shown") }, "\(lines)")
        #expect(!lines.contains { $0.contains("notes.txt") })
        app.type("j")
        #expect(app.state.queue.current?.id == 2, "the cursor moves over the jobs shown")
        app.press(.escape)
        #expect(!app.state.queue.isFiltered && app.state.queue.shown.count == 6)
        #expect(app.state.queue.current?.id == 2, "clearing keeps the cursor on its job")
    }

    @Test("is:failed narrows to the failures; keys typed in the filter never act (q, d, p are text)")
    func narrowingToAState() {
        var app = Self.app()
        #expect(app.type("/is:failed").isEmpty)
        #expect(app.state.queue.shown == [1, 3, 6])
        #expect(app.press(.backspace).isEmpty)
        app.type(" d q")
        #expect(app.state.queue.filter.text == "is:faile d q")
        #expect(app.state.queue.shown.isEmpty)
        let lines = app.screen(width: 100, height: 24).lines()
        #expect(lines.contains { $0.contains("no job matches the filter") }, "\(lines)")
        app.press(.escape)
        #expect(app.state.queue.shown.count == 6 && !app.state.isQuitting)
        app.type("/is:nope")
        #expect(app.screen(width: 100, height: 24).lines().contains { $0.contains("no state is called is:nope") })
    }

    @Test("f, D, x, R and C act on the jobs the filter shows, and say so")
    func keysActOnWhatIsShown() {
        var app = Self.app()
        app.type("/photo")
        app.press(.enter)
        app.type("f")
        #expect(app.state.queue.current?.id == 6, "f goes from photo-1 to the next failure shown, Photo-4, past notes")
        app.type("f")
        #expect(app.state.queue.current?.id == 1)
        let help = KeyBindings.binding(for: .char("D"), in: .queue)?.liveDescription?(app.state)
        #expect(help == "remove failed jobs shown")
        #expect(app.type("D") == [.remove(1), .remove(6)])
        #expect(app.state.notice == "removed 2 failed upload(s) the filter showed")
        #expect(app.state.queue.rows[3]?.state == .failed, "a failure the filter hid stays")
        #expect(app.type("x") == [.remove(2)], "x clears the done jobs shown")
        #expect(app.type("C") == [.cancel(4)])
        app.press(.escape)
        #expect(Self.retryAll(&app) == [.retryFailedAndCancelled], "without a filter R retries them all")
        var other = Self.app()
        other.type("/is:c")
        other.press(.enter)
        #expect(Self.retryAll(&other) == [.retry(5)], "with one, only those shown")
        #expect(KeyBindings.binding(for: .char("f"), in: .queue)?.whyDisabled(other.state) == "no failed jobs shown")
    }

    /// `R`, answering "as queued" if it asks whether to send with the form as it is now.
    static func retryAll(_ app: inout AppHarness) -> [AppCommand] {
        let commands = app.type("R")
        guard case .retryWithForm? = app.state.confirmation else { return commands }
        return app.type("o")
    }

    @Test("a state filter follows the jobs: a retried failure leaves is:failed, a new failure comes in, the cursor stays on its job")
    func stateFilterFollowsEvents() {
        var app = Self.app()
        app.type("/is:failed")
        app.press(.enter)
        app.type("G")
        #expect(app.state.queue.current?.id == 6)
        app.type("k")
        #expect(app.state.queue.current?.id == 3)
        // photo-1, before the cursor, is retried: it leaves, the cursor stays on notes.
        app.send(.uploadEventReceived(.queued(UploadJob(id: 1, spec: AppFixtures.spec("photo-1.jpg"), state: .queued, attempts: 1))))
        #expect(app.state.queue.shown == [3, 6])
        #expect(app.state.queue.current?.id == 3)
        // photo-3 fails: it comes in between, in queue order; the cursor stays.
        app.send(.uploadEventReceived(.failed(UploadJob(id: 4, spec: AppFixtures.spec("photo-3.jpg"), state: .failed,
                                                        attempts: 1, lastError: Self.refused), reason: Self.refused)))
        #expect(app.state.queue.shown == [3, 4, 6])
        #expect(app.state.queue.current?.id == 3)
        // A new job never fails at once: a queued one stays out of is:failed.
        app.send(.uploadEventReceived(.queued(UploadJob(id: 7, spec: AppFixtures.spec("late.jpg")))))
        #expect(app.state.queue.shown == [3, 4, 6])
        app.send(.uploadEventReceived(.removed(3)))
        #expect(app.state.queue.shown == [4, 6])
    }

    @Test("the filter line fits 80 columns and a narrow pane; the help screen lists / under Queue")
    func rendering() {
        var app = Self.app()
        app.type("/")
        let empty = app.screen(width: 80, height: 24).lines()
        #expect(empty.contains { $0.contains("filter:") && $0.contains("is:failed") }, "the syntax shows while empty: \(empty)")
        app.type("is:failed")
        for width in [40, 80, 120] {
            let lines = app.screen(width: width, height: 24).lines()
            #expect(lines.contains { $0.contains("filter:") }, "\(width): \(lines)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
        }
        app.press(.enter)
        app.type("?")
        let help = app.screen(width: 120, height: 40).lines().joined(separator: "\n")
        #expect(help.contains("filter (name, is:failed)"), "\(help)")
    }
}
