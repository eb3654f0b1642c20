import Dispatch
import FerryApp
import FerryRuntime
import Foundation
import Synchronization
import TerminalUI
import Testing
import TestSupport
import UploadModel
import UploadEngine

@Suite("The interface loop on an in-memory terminal")
struct InterfaceLoopTests {
    /// Holds directory reads until the test opens it; every other command runs as usual.
    final class GatedPerformer: CommandPerformer {
        let inner: any CommandPerformer
        let gate = DispatchSemaphore(value: 0)

        init(_ inner: any CommandPerformer) {
            self.inner = inner
        }

        func perform(_ command: AppCommand) -> [AppMessage] {
            if case .loadDirectory = command {
                gate.wait()
                gate.signal()
            }
            return inner.perform(command)
        }
    }

    /// Records every command before carrying it out.
    final class RecordingPerformer: CommandPerformer {
        let inner: any CommandPerformer
        let commands = Mutex<[AppCommand]>([])

        init(_ inner: any CommandPerformer) {
            self.inner = inner
        }

        func perform(_ command: AppCommand) -> [AppMessage] {
            commands.withLock { $0.append(command) }
            return inner.perform(command)
        }
    }

    let folder: TemporaryDirectory
    let manager = UploadManager(transport: FakeTransport())

    init() throws {
        folder = TemporaryDirectory()
        try folder.write("alpha.txt", Array("alpha".utf8))
        try folder.write("beta.txt", Array("beta".utf8))
    }

    func loop(_ terminal: FakeTerminal, performer: any CommandPerformer) -> InterfaceLoop {
        let state = AppState(directory: folder.path, settings: FormSettings(), homeDirectory: "/", size: terminal.size,
                             timeZone: TimeZone(identifier: "UTC")!)
        return InterfaceLoop(terminal: terminal, process: terminal, worker: CommandWorker(performer: performer), inbox: EventInbox(),
                             state: state)
    }

    @Test("keys go in, screens come out: the folder shows, ? opens and closes the help, q quits")
    func keysToScreens() {
        let terminal = FakeTerminal(size: Size(width: 100, height: 24), script: [
            .waitForScreen(containing: "alpha.txt"),
            .key(.char("?")),
            .waitForScreen(containing: "Moving in lists"),
            .key(.char("?")),
            .waitForScreen(containing: "beta.txt"),
            .key(.char("q")),
        ])
        let performer = RecordingPerformer(EngineCommandPerformer(manager: manager, journal: nil))
        let signal = loop(terminal, performer: performer).run(initial: [])
        #expect(signal == nil)
        #expect(terminal.unmetWaits.isEmpty)
        let screens = terminal.frames.map { $0.lines().joined(separator: "\n") }
        let help = screens.firstIndex { $0.contains("Moving in lists") }
        #expect(help != nil && screens[..<(help ?? 0)].contains { $0.contains("alpha.txt") })
        #expect(!terminal.screen.joined().contains("Moving in lists"))
        #expect(terminal.frames.allSatisfy { $0.size == Size(width: 100, height: 24) })
        let commands = performer.commands.withLock { $0 }
        #expect(commands.first == .loadDirectory(folder.path, focusName: nil))
        #expect(commands.last == .quit)
    }

    @Test("y in the Form: the curl command reaches the terminal's clipboard, on the loop's thread, and shows")
    func copyCurlToClipboard() {
        let terminal = FakeTerminal(size: Size(width: 120, height: 30), script: [
            .waitForScreen(containing: "alpha.txt"),
            .key(.char("2")),
            .key(.char("y")),
            .waitForScreen(containing: "copied to the clipboard"),
            .key(.key(.escape)),
            .key(.char("q")),
        ])
        let state = AppState(directory: folder.path, settings: FormSettings(url: "http://127.0.0.1:9/upload"), homeDirectory: "/",
                             size: terminal.size, timeZone: TimeZone(identifier: "UTC")!)
        let loop = InterfaceLoop(terminal: terminal, process: terminal, worker: CommandWorker(performer: EngineCommandPerformer(manager: manager, journal: nil)),
                                 inbox: EventInbox(), state: state)
        #expect(loop.run(initial: []) == nil)
        #expect(terminal.unmetWaits.isEmpty)
        #expect(terminal.clipboard == ["curl http://127.0.0.1:9/upload -F 'file=@\"\(folder.path)/alpha.txt\";filename=\"alpha.txt\";type=text/plain'"])
    }

    @Test("a slow folder read does not freeze the screen: keys are answered while it runs")
    func slowFolder() {
        let performer = GatedPerformer(EngineCommandPerformer(manager: manager, journal: nil))
        let terminal = FakeTerminal(size: Size(width: 100, height: 24), script: [
            .key(.char("?")),
            .waitForScreen(containing: "Moving in lists"),
            .action { performer.gate.signal() },
            .key(.char("?")),
            .waitForScreen(containing: "alpha.txt"),
            .key(.char("q")),
        ])
        #expect(loop(terminal, performer: performer).run(initial: []) == nil)
        #expect(terminal.unmetWaits.isEmpty)
    }

    @Test("an upload event ends the loop's sleep and shows in the next frame; idle, the loop sleeps a second at a time")
    func eventsWakeTheLoop() {
        let inbox = EventInbox()
        let spec = UploadJobSpec(url: "http://127.0.0.1:9/u", files: [QueuedFile(path: "/x/woken.txt", size: 5, modificationTimeNanoseconds: 1)])
        let job = UploadJob(id: 7, spec: spec, state: .failed)
        let terminal = FakeTerminal(size: Size(width: 100, height: 24), script: [
            .waitForScreen(containing: "alpha.txt"),
            .key(.char("3")),
            .action {
                Thread.detachNewThread {
                    Thread.sleep(forTimeInterval: 0.3)
                    inbox.append([.failed(job, reason: .serverRejected(status: 401, retryAfter: nil))])
                }
            },
            .idleUntilScreen(containing: "woken.txt"),
        ])
        let state = AppState(directory: folder.path, settings: FormSettings(), homeDirectory: "/", size: terminal.size,
                             timeZone: TimeZone(identifier: "UTC")!)
        let worker = CommandWorker(performer: EngineCommandPerformer(manager: manager, journal: nil))
        _ = InterfaceLoop(terminal: terminal, process: terminal, worker: worker, inbox: inbox, state: state).run(initial: [])
        #expect(terminal.unmetWaits.isEmpty)
        #expect(terminal.wokenWaits >= 1, "the event woke the loop's wait")
        #expect(terminal.requestedTimeouts.max() == InterfaceLoop.idleTimeoutMilliseconds)
    }

    @Test("Ctrl-Z suspends on the loop's thread, whatever is open, and the screen is drawn again after")
    func controlZSuspends() {
        let terminal = FakeTerminal(size: Size(width: 100, height: 24), script: [
            .waitForScreen(containing: "alpha.txt"),
            .key(.char("/")),
            .key(.key(.ctrl("z"))),
            .resize(Size(width: 100, height: 24)),
            .waitForScreen(containing: "alpha.txt"),
        ])
        _ = loop(terminal, performer: EngineCommandPerformer(manager: manager, journal: nil)).run(initial: [])
        #expect(terminal.suspensions == 1)
        #expect(terminal.unmetWaits.isEmpty)
    }

    @Test("a resize draws the next frame at the new size")
    func resize() {
        let terminal = FakeTerminal(size: Size(width: 100, height: 24), script: [
            .waitForScreen(containing: "alpha.txt"),
            .resize(Size(width: 60, height: 12)),
            .waitForScreen(containing: "alpha.txt"),
        ])
        _ = loop(terminal, performer: EngineCommandPerformer(manager: manager, journal: nil)).run(initial: [])
        #expect(terminal.frames.last?.size == Size(width: 60, height: 12))
        #expect(terminal.unmetWaits.isEmpty)
    }

    @Test("a termination signal ends the loop and is returned, after the form is saved")
    func terminationSignal() {
        let terminal = FakeTerminal(size: Size(width: 100, height: 24), script: [
            .waitForScreen(containing: "alpha.txt"),
            .signal(SIGTERM),
        ])
        let performer = RecordingPerformer(EngineCommandPerformer(manager: manager, journal: nil))
        #expect(loop(terminal, performer: performer).run(initial: []) == SIGTERM)
        let commands = performer.commands.withLock { $0 }
        #expect(commands.suffix(2) == [.saveForm(FormSettings().savable), .quit])
    }
}
