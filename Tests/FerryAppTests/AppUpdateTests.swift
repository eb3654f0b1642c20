import FerryApp
import FileSystem
import Foundation
import TerminalUI
import Testing
import TextFormat
import UploadModel

@Suite("App update")
struct AppUpdateTests {
    static let tree: [String: [BrowserEntry]] = [
        "/data": [file("zeta.txt"), folder("photos"), file("alpha.txt", size: 300), file(".hidden"), folder("docs")],
        "/data/photos": [file("a.png", in: "/data/photos", size: 10), file("b.png", in: "/data/photos", size: 20),
                         file("c.png", in: "/data/photos", size: 30), file("d.png", in: "/data/photos", size: 40)],
        "/data/docs": [],
    ]
    static let valid = FormSettings(url: "http://127.0.0.1:9/upload")

    @Test func listsDirectoriesFirstThenFilesByName() {
        let app = AppHarness(directories: Self.tree)
        #expect(app.state.browser.shownEntries.map(\.name) == ["docs", "photos", "alpha.txt", "zeta.txt"])
    }

    @Test func hiddenFilesToggleAndSortCycles() {
        var app = AppHarness(directories: Self.tree)
        app.type(".")
        #expect(app.state.browser.shownEntries.map(\.name).contains(".hidden"))
        app.type("s")
        #expect(app.state.browser.sort == .size)
        #expect(app.state.browser.shownEntries.map(\.name).suffix(3) == ["alpha.txt", ".hidden", "zeta.txt"]
            || app.state.browser.shownEntries.first?.isDirectory == true)
    }

    @Test func opensAFolderAndGoesBackUpToIt() {
        var app = AppHarness(directories: Self.tree)
        app.type("j")
        let opened = app.type("l")
        #expect(opened == [.loadDirectory("/data/photos", focusName: nil)])
        #expect(app.state.browser.directory == "/data/photos")
        let up = app.press(.backspace)
        #expect(up == [.loadDirectory("/data", focusName: "photos")])
        #expect(app.state.browser.current?.name == "photos")
    }

    @Test func unreadableFolderShowsAnInlineError() {
        var app = AppHarness(directories: Self.tree)
        app.press(.end)
        app.send(.directoryLoaded(DirectoryListing(path: "/secret", entries: [], error: "cannot open /secret: Permission denied")))
        #expect(app.state.browser.directory == "/data")
        #expect(app.screen().lines()[1].contains("cannot open /secret: Permission denied"))
    }

    @Test func filterIsIncrementalCaseInsensitiveAndEscClears() {
        var app = AppHarness(directories: Self.tree)
        app.type("/ALP")
        #expect(app.state.browser.shownEntries.map(\.name) == ["alpha.txt"])
        app.press(.enter)
        #expect(app.state.browser.filterEditor == nil)
        #expect(app.state.browser.filter == "ALP")
        app.press(.escape)
        #expect(app.state.browser.shownEntries.count == 4)
    }

    @Test func spaceSelectsAndMovesDownAndTheTotalIsKept() {
        var app = AppHarness(directories: Self.tree)
        app.type("jj")
        app.type("  ")
        #expect(app.state.browser.selection.count == 2)
        #expect(app.state.browser.selectedBytes == 400)
        #expect(app.state.browser.scroll.cursor == 3)
        app.type("k ")
        #expect(app.state.browser.selection.count == 1)
    }

    @Test func selectAllTogglesEveryFileShown() {
        var app = AppHarness(directories: Self.tree)
        app.type("a")
        #expect(app.state.browser.selection.count == 2)
        app.type("a")
        #expect(app.state.browser.selection.isEmpty)
    }

    @Test func spaceOnAFolderSelectsItsFilesAndAsksAboveOneThousand() {
        var app = AppHarness(directories: Self.tree)
        let many = (0..<1001).map { QueuedFile(path: "/data/docs/\($0)", size: 1, modificationTimeNanoseconds: 0) }
        app.collections["/data/docs"] = FileCollection(directory: "/data/docs", files: many)
        app.type(" ")
        #expect(app.state.confirmation == .selectFolder(FileCollection(directory: "/data/docs", files: many)))
        #expect(app.screen().lines().joined().contains("Select 1001 files"))
        app.type("y")
        #expect(app.state.browser.selection.count == 1001)
        #expect(app.state.confirmation == nil)
    }

    @Test func queueingNeedsASelectionAndAValidForm() {
        var app = AppHarness(directories: Self.tree)
        #expect(app.type("u").isEmpty)
        #expect(app.state.notice == "nothing selected")
        app.type("jj ")
        #expect(app.type("u").isEmpty)
        #expect(app.state.notice == "URL: enter the URL to upload to")
        #expect(app.state.browser.selection.count == 1)
    }

    @Test func queueingBuildsOneJobPerFileWithTheParametersAndFocusesTheQueue() throws {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("jl")
        app.type("   ")
        app.type("2n")
        app.type("note=hello")
        let saved = app.press(.enter)
        #expect(saved.count == 1)
        let commands = app.type("u")
        #expect(commands.count == 1)
        guard case .enqueue(let specs)? = commands.last else {
            Issue.record("no enqueue in \(commands)")
            return
        }
        #expect(specs.map { $0.files.map(\.path) } == [["/data/photos/a.png"], ["/data/photos/b.png"], ["/data/photos/c.png"]])
        #expect(specs.allSatisfy { $0.textFields == [FormTextField(name: "note", value: "hello")] })
        #expect(specs.allSatisfy { $0.maximumRetries == 3 }, "the Retries setting travels with each job")
        #expect(specs.allSatisfy { $0.url == "http://127.0.0.1:9/upload" && $0.fileField == "file" })
        #expect(app.state.focus == .queue)
        #expect(app.state.browser.selection.isEmpty)
        #expect(app.state.queue.order.count == 3)
    }

    @Test func bundleModeSendsOneRequest() {
        var settings = Self.valid
        settings.mode = .bundle
        var app = AppHarness(directories: Self.tree, settings: settings)
        app.type("a")
        let commands = app.type("u")
        guard case .enqueue(let specs)? = commands.last else {
            Issue.record("no enqueue")
            return
        }
        #expect(specs.count == 1)
        #expect(specs[0].files.count == 2)
    }

    @Test func invalidURLIsFlaggedInline() {
        var app = AppHarness(directories: Self.tree)
        app.type("2")
        app.press(.enter)
        app.type("ftp://x")
        app.press(.enter)
        #expect(app.state.form.settings.url == "ftp://x")
        #expect(app.state.form.error(of: .url) != nil)
        let screen = app.screen().lines()
        #expect(screen[1].hasPrefix("URL          ftp://x  ✗"))
    }

    @Test func aConcurrencyThatIsNotANumberIsFlaggedAndBlocksQueueing() {
        var app = AppHarness(directories: Self.tree)
        app.type("2")
        app.press(.enter)
        app.type("http://127.0.0.1:3000/upload")
        app.press(.enter)
        app.type("jjjjj")
        #expect(app.state.form.currentField == .concurrency)
        app.press(.enter)
        app.press(.ctrl("u"))
        app.type("lots")
        app.press(.enter)
        #expect(app.state.form.settings.concurrency == 4)
        #expect(app.state.form.error(of: .concurrency) == "enter a whole number from 1 to 64")
        #expect(app.state.form.blockingReason == "Concurrency: enter a whole number from 1 to 64")
        app.press(.enter)
        app.press(.ctrl("u"))
        app.type("8")
        app.press(.enter)
        #expect(app.state.form.settings.concurrency == 8)
        #expect(app.state.form.blockingReason == nil)
    }

    @Test func secretHeadersAreMaskedUntilRevealed() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("2G")
        app.type("n")
        app.type("X-Api-Key: s3cret")
        app.press(.enter)
        #expect(app.state.form.settings.headers == [FormRow(name: "X-Api-Key", value: "s3cret")])
        #expect(!app.screen().lines().joined().contains("s3cret"))
        app.type("m")
        #expect(app.screen().lines().joined().contains("X-Api-Key: s3cret"))
    }

    @Test("a masked secret shows the same dots whatever its length")
    func maskedSecretsDoNotShowTheirLength() {
        var settings = Self.valid
        settings.headers = [FormRow(name: "Authorization", value: "Bearer abc"),
                            FormRow(name: "X-Api-Key", value: "a-much-longer-secret-value")]
        let form = FormState(settings: settings)
        #expect(form.displayText(of: .header(0)) == "Authorization: " + FormState.secretMask)
        #expect(form.displayText(of: .header(1)) == "X-Api-Key: " + FormState.secretMask)
    }

    @Test func deleteRemovesTheRowAndEmptyNewRowsVanish() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("2n")
        app.press(.escape)
        #expect(app.state.form.settings.parameters.isEmpty)
        app.type("nk=v")
        app.press(.enter)
        #expect(app.state.form.settings.parameters == [FormRow(name: "k", value: "v")])
        app.type("d")
        #expect(app.state.form.settings.parameters.isEmpty)
    }

    @Test("Enter on Method opens a choice of POST, PUT and PATCH; the footer says what Enter does on each row")
    func methodIsChosenFromAList() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("2")
        #expect(app.screen().lines()[19].hasPrefix("Enter edit"))
        app.type("j")
        #expect(app.screen().lines()[19].hasPrefix("Enter choose"), "\(app.screen().lines()[19])")
        #expect(app.press(.enter).isEmpty)
        var lines = app.screen().lines()
        #expect(lines[2].hasPrefix("Method       POST  PUT  PATCH"), "\(lines[2])")
        #expect(lines[19].hasPrefix("←/→ choose  Enter set  Esc cancel"), "\(lines[19])")
        app.press(.right)
        app.press(.escape)
        #expect(app.state.form.settings.method == "POST", "Esc keeps the method")
        app.press(.enter)
        app.press(.right)
        app.type("l")
        let commands = app.press(.enter)
        #expect(app.state.form.settings.method == "PATCH")
        #expect(commands == [.saveForm(app.state.form.settings)])
        lines = app.screen().lines()
        #expect(lines[2].hasPrefix("Method       PATCH "), "\(lines[2])")
    }

    @Test func modeSwitchesWithEnterAndTheFooterSaysSo() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("2jjj")
        #expect(app.screen().lines()[19].hasPrefix("Enter switch"), "\(app.screen().lines()[19])")
        let commands = app.press(.enter)
        #expect(app.state.form.settings.mode == .bundle)
        #expect(commands == [.saveForm(app.state.form.settings)])
    }

    @Test func failedJobsShowTheirStatusAndRetryAllBringsThemBack() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("a")
        app.type("u")
        let ids = app.state.queue.order
        for id in ids { app.send(app.engine.finish(id, status: 500)) }
        #expect(app.state.queue.summary.failed == 2)
        let row = app.screen().lines()[2]
        #expect(row.contains("HTTP 500"))
        #expect(app.type("R") == [.retryFailedAndCancelled])
        #expect(app.state.queue.summary.queued == 2)
        for id in ids { app.send(app.engine.finish(id, status: 200)) }
        #expect(app.screen().lines()[2].contains("done"))
    }

    @Test("the queue's pause follows the engine's pausedChanged events; p asks for the other one")
    func pauseFollowsTheEngine() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.state.focus = .queue
        #expect(app.state.update(.keyPressed(.char("p"))) == [.setPaused(true), .rememberPause(true)])
        #expect(!app.state.queue.isPaused, "nothing changes until the engine says so")
        _ = app.state.update(.uploadEventReceived(.pausedChanged(true)))
        #expect(app.state.queue.isPaused)
        #expect(app.state.update(.keyPressed(.char("p"))) == [.setPaused(false), .rememberPause(false)])
        _ = app.state.update(.uploadEventReceived(.pausedChanged(false)))
        #expect(!app.state.queue.isPaused)
    }

    @Test func queueKeysBecomeCommands() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("a")
        app.type("u")
        let first = app.state.queue.order[0]
        #expect(app.type("c") == [.cancel(first)])
        #expect(app.type("C") == [.cancelAll])
        #expect(app.type("p") == [.setPaused(true), .rememberPause(true)])
        #expect(app.type("p") == [.setPaused(false), .rememberPause(false)])
        #expect(app.type("x") == [.clearSucceeded])
        let more = app.type("+")
        #expect(more.contains(.setConcurrency(5)))
        #expect(app.type("-").contains(.setConcurrency(4)))
        #expect(app.type("r").isEmpty)
        #expect(app.state.notice == "only failed, cancelled or held jobs can be retried")
        #expect(app.type("d") == [.remove(first)])
        #expect(app.state.queue.order.count == 1)
    }

    @Test func detailsOpenWithEnterAndCloseWithEscape() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("a")
        app.type("u")
        app.send(app.engine.finish(app.state.queue.order[0], status: 413))
        app.press(.enter)
        let text = app.screen().lines().joined(separator: "\n")
        #expect(text.contains("Request: POST http://127.0.0.1:9/upload"))
        #expect(text.contains("Response: 413"))
        #expect(text.contains("server says 413"))
        app.press(.escape)
        #expect(app.state.queue.detailsJobID == nil)
    }

    @Test func detailsListEveryAttemptAndScrollThroughALongResponse() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid, size: Size(width: 120, height: 24))
        app.type("a")
        app.type("u")
        let queued = app.state.queue.rows[app.state.queue.order[0]]!.job
        let start = Date(timeIntervalSince1970: 1_795_324_387)
        let refused = UploadError.serverRejected(status: 503, retryAfter: nil)
        let lost = UploadError.transferFailed(reason: .connectionLost(message: "reset by peer"))
        let job = UploadJob(
            id: queued.id, spec: queued.spec, state: .failed, attempts: 3, automaticRetries: 2, lastError: lost,
            response: UploadResponse(status: 503, body: Array((1...30).map { "body line \($0)" }.joined(separator: "\n").utf8)),
            attemptHistory: [
                UploadAttempt(number: 1, outcome: .failed, startedAt: start, duration: .milliseconds(250), bytesSent: 300,
                              totalBytes: 300, status: 503, error: refused.description, retryDelay: .milliseconds(500)),
                UploadAttempt(number: 2, outcome: .interrupted, startedAt: start + 60, bytesSent: 100, totalBytes: 300),
                UploadAttempt(number: 3, outcome: .failed, startedAt: start + 120, duration: .seconds(2), bytesSent: 150,
                              totalBytes: 300, error: lost.description),
            ]
        )
        app.send(.uploadEventReceived(.failed(job, reason: lost)))
        app.press(.enter)
        let time = { (offset: TimeInterval) in HumanFormat.preciseTimestamp(start + offset) }
        func screenLines() -> [String] {
            app.screen(width: 120, height: 24).lines().map { String($0.reversed().drop { $0 == " " }.reversed()) }
        }
        var lines = screenLines()
        #expect(lines.contains("Attempts: 3, 2 of them automatic retries"))
        #expect(lines.contains("#1 \(time(0)) ✗ \(refused.description) · 300 B in 0.3s · retry after 0.5s"))
        #expect(lines.contains("#2 \(time(60)) ⊘ interrupted: Ferry stopped while sending · 100 B of 300 B"))
        #expect(lines.contains("#3 \(time(120)) ✗ \(lost.description) · 150 B of 300 B in 2.0s"))
        #expect(!lines.contains { $0.hasPrefix("Last error:") }, "the last attempt already shows the last error")
        #expect(!lines.contains("body line 30"))
        app.type("G")
        lines = screenLines()
        #expect(lines.contains("body line 30"))
        #expect(!lines.contains { $0.hasPrefix("Job ") })
        app.type("k")
        #expect(!screenLines().contains("body line 30"))
        app.type("g")
        #expect(screenLines().contains { $0.hasPrefix("Job ") })
        #expect(app.state.queue.detailsJobID == job.id, "scrolling keeps the details open on the same job")
    }

    @Test func quitAsksWhileUploadsRun() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("a")
        app.type("u")
        #expect(app.type("q") == [.setPaused(true)], "nothing starts while the question waits")
        #expect(app.state.confirmation == .quit(inFlight: 0, waiting: 2))
        #expect(app.type("n") == [.setPaused(false)])
        #expect(!app.state.isQuitting)
        app.type("q")
        #expect(app.type("y") == [.saveForm(Self.valid), .quit])
        #expect(app.state.isQuitting)
    }

    @Test func quitWithoutUploadsAndCtrlCQuitAtOnce() {
        var idle = AppHarness(directories: Self.tree)
        #expect(idle.type("q").last == .quit)
        var busy = AppHarness(directories: Self.tree, settings: Self.valid)
        busy.type("au")
        #expect(busy.press(.ctrl("c")).last == .quit)
    }

    @Test func aTerminationSignalQuitsWithoutAskingEvenWithAQuestionOpen() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("au")
        app.type("q")
        #expect(app.state.confirmation == .quit(inFlight: 0, waiting: 2))
        #expect(app.send(.terminationRequested) == [.saveForm(Self.valid), .quit])
        #expect(app.state.isQuitting)
    }

    @Test func panesSwitchWithTabShiftTabAndDigits() {
        var app = AppHarness(directories: Self.tree)
        app.press(.tab)
        #expect(app.state.focus == .form)
        app.press(.backTab)
        app.press(.backTab)
        #expect(app.state.focus == .queue)
        app.type("1")
        #expect(app.state.focus == .files)
    }

    @Test func helpOpensAndCloses() {
        var app = AppHarness(directories: Self.tree)
        app.type("?")
        #expect(app.state.showsHelp)
        app.type("G")
        #expect(app.screen().lines().joined().contains("next failure"))
        app.press(.escape)
        #expect(!app.state.showsHelp)
    }

    @Test func goingUpFromAFolderThatIsNotUTF8PutsTheCursorOnIt() {
        let folderPath = "/data/d\u{EFFF}"  // as FileSystemName decodes "d" FF
        let entries = [file("a"), BrowserEntry(name: "d\\xFF", path: folderPath, kind: .directory), file("z")]
        var app = AppHarness(directory: folderPath, directories: ["/data": entries, folderPath: []])
        app.type("h")
        #expect(app.state.browser.directory == "/data")
        #expect(app.state.browser.current?.path == folderPath)
    }

    @Test func restoredJobsAppear() {
        var app = AppHarness(directories: Self.tree)
        let job = UploadJob(id: 7, spec: UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: "/x/y.bin", size: 5, modificationTimeNanoseconds: 0)]))
        app.send(.jobsRestored([job], paused: true, othersWaiting: 0))
        #expect(app.state.queue.order == [7])
    }

    static func restoredJob(_ id: Int64, _ state: UploadJobState, name: String = "y.bin", held: Bool = false) -> UploadJob {
        UploadJob(id: UploadJobID(id), spec: UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: "/x/\(name)", size: 5, modificationTimeNanoseconds: 0)]),
                  state: state, attempts: state == .queued ? 0 : 1, isHeld: held)
    }

    /// A job stopped after its whole body went out, as `stop()` leaves it.
    static func mayHaveArrived(_ id: Int64) -> UploadJob {
        UploadJob(id: UploadJobID(id),
                  spec: UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: "/x/sent.bin", size: 5, modificationTimeNanoseconds: 0)]),
                  state: .failed, attempts: 1, lastError: .transferFailed(reason: .stoppedAfterSending),
                  attemptHistory: [UploadAttempt(number: 1, outcome: .interrupted, bytesSent: 300, totalBytes: 300)])
    }

    @Test("restored unfinished jobs are held for p while new uploads start; ferry send's jobs are only mentioned; earlier failures are offered for review or clearing")
    func restoredQueueWaitsForTheUser() {
        var app = AppHarness(directories: Self.tree)
        let jobs = [Self.restoredJob(1, .queued, held: true), Self.restoredJob(2, .failed), Self.restoredJob(3, .queued, held: true)]
        jobs.forEach { app.engine.adopt($0) }
        app.send(.jobsRestored(jobs, paused: false, othersWaiting: 4))
        #expect(!app.state.queue.isPaused)
        #expect(app.state.queue.heldCount == 2)
        #expect(app.state.notice?.contains("2 upload(s) from last time are held: p starts them") == true, "\(app.state.notice ?? "")")
        #expect(app.state.notice?.contains("4 job(s) of ferry send wait for ferry send --resume") == true)
        #expect(app.state.confirmation == .earlierFailures([2]))
        #expect(app.type("c") == [.remove(2)])
        #expect(app.state.queue.order == [1, 3])
        #expect(KeyBindings.binding(for: .key(.character("p")), in: .queue)?.liveDescription?(app.state) == "start held")
        #expect(app.type("p") == [.releaseHeld], "p starts the held jobs; it does not pause")
        #expect(app.state.queue.heldCount == 0)
        #expect(app.state.queue.rows.values.allSatisfy { !$0.isHeld })
        #expect(app.type("p") == [.setPaused(true), .rememberPause(true)], "with nothing held, p pauses")
    }

    @Test("a queue paused last time with held jobs: one p resumes it and starts them; r on a held job starts that one")
    func pausedWithHeldJobs() {
        var app = AppHarness(directories: Self.tree)
        let jobs = [Self.restoredJob(1, .queued, held: true), Self.restoredJob(2, .queued, held: true)]
        jobs.forEach { app.engine.adopt($0) }
        app.send(.jobsRestored(jobs, paused: true, othersWaiting: 0))
        #expect(app.state.notice == "2 upload(s) from last time are held: p starts them; the queue is paused: p resumes it")
        app.state.focus = .queue
        let rows = app.screen(width: 80, height: 20).lines().filter { $0.contains("y.bin") }
        #expect(rows.count == 2 && rows.allSatisfy { $0.contains("held (p)") }, "\(rows)")
        #expect(app.type("r") == [.retry(1)], "r starts the held job under the cursor")
        #expect(app.state.queue.heldCount == 1)
        #expect(app.type("p") == [.setPaused(false), .rememberPause(false), .releaseHeld])
    }

    @Test("earlier failures kept for review stay in the queue; a queue paused last time stays paused with nothing waiting")
    func earlierFailuresKept() {
        var app = AppHarness(directories: Self.tree)
        app.send(.jobsRestored([Self.restoredJob(5, .failed)], paused: true, othersWaiting: 0))
        #expect(app.state.notice == "the queue is paused: p resumes it")
        #expect(app.press(.enter).isEmpty)
        #expect(app.state.confirmation == nil)
        #expect(app.state.queue.order == [5])
    }

    @Test("secret headers are saved with the form only when the user asks to remember them (the Secrets row)")
    func secretsAreForgottenUnlessRemembered() {
        var settings = Self.valid
        settings.headers = [FormRow(name: "Authorization", value: "Bearer abc"), FormRow(name: "X-Trace", value: "1")]
        var app = AppHarness(directories: Self.tree, settings: settings)
        let quit = app.type("q")
        guard case .saveForm(let saved)? = quit.first else { Issue.record("\(quit)"); return }
        #expect(saved.headers == [FormRow(name: "X-Trace", value: "1")])
        #expect(app.state.form.settings.headers.count == 2, "the running session keeps the secret")

        var remembering = AppHarness(directories: Self.tree, settings: settings)
        remembering.type("2")
        while remembering.state.form.currentField != .remembersSecrets { remembering.press(.down) }
        let toggled = remembering.press(.enter)
        guard case .saveForm(let kept)? = toggled.first else { Issue.record("\(toggled)"); return }
        #expect(kept.remembersSecrets)
        #expect(kept.headers.count == 2)
    }

    /// Two files queued, the first in flight, and `q` pressed.
    static func quitAskedWithOneInFlight() -> AppHarness {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("au")
        app.send(app.engine.start(1))
        app.type("q")
        return app
    }

    @Test("quit with uploads in flight: Enter lets them finish (nothing new starts), then quits; s stops them now")
    func quitLetsInFlightFinish() {
        var app = Self.quitAskedWithOneInFlight()
        #expect(app.state.confirmation == .quit(inFlight: 1, waiting: 1))
        #expect(app.state.queue.isPaused, "the question paused the queue")
        #expect(app.press(.enter).isEmpty)
        #expect(!app.state.isQuitting)
        #expect(app.state.quitsWhenInFlightFinish)
        #expect(app.send(app.engine.finish(1, status: 200)) == [.saveForm(Self.valid), .quit])
        #expect(app.state.isQuitting)

        var stopping = Self.quitAskedWithOneInFlight()
        #expect(stopping.type("s") == [.saveForm(Self.valid), .quit])
        #expect(stopping.state.isQuitting)
    }

    @Test("while quitting waits for uploads, Esc stays (the queue runs again unless paused) and q stops them now")
    func quitWaitingCanBeUndoneOrHurried() {
        var app = Self.quitAskedWithOneInFlight()
        app.press(.enter)
        #expect(app.press(.escape) == [.setPaused(false)])
        #expect(!app.state.quitsWhenInFlightFinish)
        app.type("q")
        app.press(.enter)
        #expect(app.type("q") == [.saveForm(Self.valid), .quit])
    }

    @Test("r on a job that may have arrived asks before sending it again; R leaves such jobs out and says so")
    func mayHaveArrivedAsksFirst() {
        var app = AppHarness(directories: Self.tree)
        let sent = Self.mayHaveArrived(1)
        let cancelled = Self.restoredJob(2, .cancelled)
        [sent, cancelled].forEach { app.engine.adopt($0) }
        app.send(.jobsRestored([sent, cancelled], paused: false, othersWaiting: 0))
        app.press(.enter)  // keep the earlier failure to review
        app.state.focus = .queue
        #expect(app.type("r").isEmpty)
        #expect(app.state.confirmation == .resend(1, name: "sent.bin"))
        #expect(app.type("n").isEmpty)
        app.type("r")
        #expect(app.type("y") == [.retry(1)])
        var all = AppHarness(directories: Self.tree)
        [sent, cancelled].forEach { all.engine.adopt($0) }
        all.send(.jobsRestored([sent, cancelled], paused: false, othersWaiting: 0))
        all.press(.enter)
        all.state.focus = .queue
        #expect(all.type("R") == [.retryFailedAndCancelled])
        #expect(all.state.notice == "1 upload(s) that may have arrived are left out: r on each sends it again")
        #expect(all.state.queue.rows[2]?.state == .queued, "a cancelled job is retried by R")
        #expect(all.state.queue.rows[1]?.state == .failed)
    }
}
