import FerryApp
import Foundation
import TerminalUI
import Testing
import UploadModel

@Suite("Footer and status line")
struct FooterAndStatusTests {
    static let valid = FormSettings(url: "http://127.0.0.1:9/upload")

    /// A queue with one job in each of the queued, uploading, succeeded and failed states.
    static func appWithFourJobs(size: Size = Size(width: 80, height: 24)) -> AppHarness {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: valid, size: size)
        let spec = { (name: String) in
            UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: "/d/" + name, size: 1000, modificationTimeNanoseconds: 0)])
        }
        let jobs = [
            UploadJob(id: 1, spec: spec("a"), state: .uploading, progress: UploadProgress(bytesSent: 500, totalBytes: 1000),
                      attempts: 1),
            UploadJob(id: 2, spec: spec("b"), state: .queued),
            UploadJob(id: 3, spec: spec("c"), state: .succeeded, attempts: 1),
            UploadJob(id: 4, spec: spec("d"), state: .failed, attempts: 1, lastError: .serverRejected(status: 500, retryAfter: nil)),
            UploadJob(id: 5, spec: spec("e"), state: .queued),
        ]
        for job in jobs { app.send(.uploadEventReceived(.queued(job))) }
        return app
    }

    @Test("at 80 columns every pane's footer keeps `? help  q quit`", arguments: ["1", "2", "3"])
    func helpAndQuitStayAt80Columns(pane: String) {
        var app = Self.appWithFourJobs()
        app.type(pane)
        let footer = app.screen(width: 80, height: 24).lines()[23]
        #expect(footer.trimmingCharacters(in: .whitespaces).hasSuffix("? help  q quit"), "\(footer)")
    }

    @Test("at 80 columns the Queue footer shows the queue's own keys before the global ones")
    func queueKeysStayAt80Columns() {
        var app = Self.appWithFourJobs()
        app.type("3")
        let footer = app.screen(width: 80, height: 24).lines()[23]
        for item in ["Enter details", "r retry", "c cancel", "p pause", "d remove", "x clear"] {
            #expect(footer.contains(item), "\(item) missing from \(footer)")
        }
    }

    @Test("at 120 columns the Queue footer has room for every queue key but +/- (the help screen lists it), in short words")
    func queueFooterAt120Columns() {
        var app = Self.appWithFourJobs(size: Size(width: 120, height: 40))
        app.type("3")
        let footer = app.screen(width: 120, height: 40).lines()[39]
        for item in ["Enter details", "r retry", "R retry all", "c cancel", "C cancel all", "p pause", "d remove", "x clear",
                     "/ filter", "? help", "q quit"] {
            #expect(footer.contains(item), "\(item) missing from \(footer)")
        }
    }

    @Test("counts read as words at 80 columns; zero counts are left out")
    func countsAreReadableAt80Columns() {
        let app = Self.appWithFourJobs()
        let status = app.screen(width: 80, height: 24).lines()[22]
        #expect(status.contains("queued 2 active 1/4 done 1 failed 1"), "\(status)")
        #expect(!status.contains("Q2"), "\(status)")
        var empty = AppHarness(directories: AppUpdateTests.tree, settings: Self.valid, size: Size(width: 80, height: 24))
        empty.type("jj ")
        let emptyStatus = empty.screen(width: 80, height: 24).lines()[22]
        #expect(emptyStatus.contains("sel 1 (300 B) │ queue empty"), "\(emptyStatus)")
    }

    @Test("while paused, p says resume and the status says what pausing means")
    func pauseSaysResumeAndExplainsItself() {
        var app = Self.appWithFourJobs(size: Size(width: 120, height: 40))
        app.type("3")
        #expect(app.screen(width: 120, height: 40).lines()[39].contains("p pause"))
        app.type("p")
        let lines = app.screen(width: 120, height: 40).lines()
        #expect(lines[39].contains("p resume"), "\(lines[39])")
        #expect(lines[38].contains("paused: 1 finishing, 2 waiting"), "\(lines[38])")
        app.type("p")
        #expect(!app.screen(width: 120, height: 40).lines()[38].contains("paused"))
    }
}
