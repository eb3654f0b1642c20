import FerryApp
import Foundation
import TerminalUI
import Testing
import UploadModel

/// The Queue pane as it reads, and the keys that act on the whole queue.
@Suite("The Queue pane and the queue's controls")
struct QueueScreenTests {
    @Test("a queue where everything failed or was cancelled does not show 100 %; a cancelled row's bar is empty")
    func failuresAreNotProgress() {
        let refused = UploadError.serverRejected(status: 500, retryAfter: nil)
        let app = AppFixtures.app([
            UploadJob(id: 1, spec: AppFixtures.spec("a"), state: .failed, attempts: 1, lastError: refused),
            UploadJob(id: 2, spec: AppFixtures.spec("b"), state: .cancelled, progress: UploadProgress(bytesSent: 1000, totalBytes: 1000)),
        ])
        let lines = app.screen(width: 100, height: 24).lines()
        let status = AppFixtures.statusLine(app.screen(width: 100, height: 24))
        #expect(!status.contains("100%"), "\(status)")
        #expect(status.contains("0%"), "\(status)")
        let cancelled = lines.first { $0.contains("b ") && $0.contains("cancelled") } ?? ""
        #expect(!cancelled.contains("100%") && !cancelled.contains("█"), "\(cancelled)")
    }

    @Test("two jobs of the same name to two endpoints are told apart by where they go")
    func sameNameTwoEndpoints() {
        let app = AppFixtures.app([UploadJob(id: 1, spec: AppFixtures.spec("same.txt", url: "http://one.test/up")),
                            UploadJob(id: 2, spec: AppFixtures.spec("same.txt", url: "http://two.test:8080/in"))])
        let lines = app.screen(width: 100, height: 24).lines()
        #expect(lines.contains { $0.contains("same.txt → one.test/up") }, "\(lines)")
        #expect(lines.contains { $0.contains("same.txt → two.test:8080/in") }, "\(lines)")
        let single = AppFixtures.app([UploadJob(id: 1, spec: AppFixtures.spec("same.txt"))])
        #expect(!single.screen(width: 100, height: 24).lines().contains { $0.contains("→ ") && $0.contains("same.txt") })
    }

    @Test("f goes to the next failure, wrapping; D removes every failed job")
    func nextFailureAndRemoveFailed() {
        let refused = UploadError.serverRejected(status: 500, retryAfter: nil)
        var app = AppFixtures.app([
            UploadJob(id: 1, spec: AppFixtures.spec("a"), state: .failed, attempts: 1, lastError: refused),
            UploadJob(id: 2, spec: AppFixtures.spec("b"), state: .succeeded, attempts: 1),
            UploadJob(id: 3, spec: AppFixtures.spec("c"), state: .failed, attempts: 1, lastError: refused),
        ])
        app.type("f")
        #expect(app.state.queue.current?.id == 3)
        app.type("f")
        #expect(app.state.queue.current?.id == 1)
        let removed = app.type("D")
        #expect(removed == [.remove(1), .remove(3)])
        #expect(app.state.queue.order == [2])
    }

    @Test("the quit question pauses the queue while it waits; staying lets it run again")
    func quitQuestionHoldsTheQueue() {
        var app = AppFixtures.app([UploadJob(id: 1, spec: AppFixtures.spec("a"), state: .queued)])
        let asked = app.type("q")
        #expect(asked == [.setPaused(true)])
        #expect(app.state.confirmation != nil)
        #expect(app.press(.escape) == [.setPaused(false)])
        app.type("p")
        #expect(app.state.queue.isPaused)
        #expect(app.type("q").isEmpty, "a queue the user paused is not paused again")
        #expect(app.press(.escape).isEmpty, "and stays paused after staying")
    }
}
