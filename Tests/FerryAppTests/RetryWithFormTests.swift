import FerryApp
import Foundation
import Multipart
import TerminalUI
import Testing
import UploadModel

/// `r` after fixing the form: the retry can take the form as it is now.
@Suite("App update: retry with the form as it is now")
struct RetryWithFormTests {
    /// A harness with one job that failed 401.
    static func failedJob() -> (AppHarness, UploadJobID) {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid)
        app.type("jj u")
        let id = app.state.queue.order[0]
        app.send(app.engine.start(id))
        app.send(app.engine.finish(id, status: 401))
        return (app, id)
    }

    @Test("with the form unchanged, r retries the job as it was queued, without asking")
    func unchangedFormRetriesAtOnce() {
        var (app, id) = Self.failedJob()
        let commands = app.type("r")
        #expect(commands == [.retry(id)])
        #expect(app.state.confirmation == nil)
    }

    @Test("after the URL and a header were fixed, r asks; Enter retries with the form as it is now, and the details say so")
    func fixedFormIsOffered() {
        var (app, id) = Self.failedJob()
        app.state.form.settings.url = "http://127.0.0.1:9/fixed"
        app.state.form.settings.headers = [FormRow(name: "Authorization", value: "Bearer right")]
        app.type("r")
        #expect(app.state.confirmation == .retryWithForm([id], changes: ["URL", "headers"], asQueued: [.retry(id)]))
        let dialog = app.screen(width: 80, height: 24).lines().joined(separator: "\n")
        #expect(dialog.contains("URL, headers changed"), "\(dialog)")
        let commands = app.press(.enter)
        guard case .retryWithRequest(let ids, let request)? = commands.first else {
            Issue.record("no retry with the form: \(commands)")
            return
        }
        #expect(ids == [id])
        #expect(request.url == "http://127.0.0.1:9/fixed")
        #expect(request.headers == [HeaderField(name: "Authorization", value: "Bearer right")])
        app.press(.enter)
        let details = app.screen(width: 100, height: 24).lines().joined(separator: "\n")
        #expect(details.contains("Retried with the form as it is now (URL, headers changed since it was queued)"), "\(details)")
    }

    @Test("o retries as queued, Esc leaves the job failed")
    func asQueuedOrLeave() {
        var (app, id) = Self.failedJob()
        app.state.form.settings.url = "http://127.0.0.1:9/other"
        app.type("r")
        #expect(app.type("o") == [.retry(id)])
        var (again, _) = Self.failedJob()
        again.state.form.settings.url = "http://127.0.0.1:9/other"
        again.type("r")
        #expect(again.press(.escape).isEmpty)
        #expect(again.state.confirmation == nil)
        #expect(again.state.queue.current?.state == .failed)
    }

    @Test("R asks once for every failed job when the form changed; Enter sends them all with it")
    func retryAllAsks() {
        var (app, id) = Self.failedJob()
        app.state.form.settings.parameters = [FormRow(name: "album", value: "2026")]
        app.type("R")
        #expect(app.state.confirmation == .retryWithForm([id], changes: ["parameters"], asQueued: [.retryFailedAndCancelled]))
        let commands = app.press(.enter)
        #expect(commands.count == 1)
        if case .retryWithRequest(let ids, let request)? = commands.first {
            #expect(ids == [id])
            #expect(request.textFields == [FormRow(name: "album", value: "2026")])
        }
    }

    @Test("a form that cannot send (empty URL) does not stop a retry as queued")
    func invalidFormRetriesAsQueued() {
        var (app, id) = Self.failedJob()
        app.state.form.settings.url = ""
        #expect(app.type("r") == [.retry(id)])
    }
}
