import FerryApp
import Foundation
import TerminalUI
import Testing
import UploadModel

/// Keys typed before the answers they depend on arrived: each acts on the state it was typed in.
@Suite("App update: keys typed ahead of results")
struct TypeAheadTests {
    static let tree: [String: [BrowserEntry]] = [
        "/data": [folder("sub"), file("a.txt")],
        "/data/sub": [folder("deeper", in: "/data/sub"), file("s.txt", in: "/data/sub")],
        "/data/sub/deeper": [],
        "/": [folder("data", in: "")],
    ]

    /// A model whose commands are answered only when the test says so, as a slow disk would.
    struct SlowApp {
        var state = AppState(directory: "/data", settings: FormSettings(url: "http://127.0.0.1:9/u"),
                             homeDirectory: "/home", size: Size(width: 80, height: 20),
                             timeZone: TimeZone(identifier: "UTC")!)
        /// Commands not answered yet, oldest first.
        var outstanding: [AppCommand] = []

        init() {
            outstanding = state.start()
        }

        mutating func type(_ text: String) {
            for character in text { outstanding += state.update(.keyPressed(.char(character))) }
        }

        mutating func press(_ event: KeyEvent) {
            outstanding += state.update(.keyPressed(event))
        }

        /// Answers the oldest outstanding directory read or file collection.
        mutating func answerNext() {
            guard let index = outstanding.firstIndex(where: {
                if case .loadDirectory = $0 { return true }
                if case .collectFiles = $0 { return true }
                return false
            }) else { return }
            let command = outstanding.remove(at: index)
            switch command {
            case .loadDirectory(let path, let focus):
                let entries = TypeAheadTests.tree[path] ?? []
                outstanding += state.update(.directoryLoaded(DirectoryListing(path: path, entries: entries, focusName: focus)))
            case .collectFiles(let path, _):
                let files = (TypeAheadTests.tree[path] ?? []).filter { $0.kind == .file }.map {
                    QueuedFile(path: $0.path, size: $0.size, modificationTimeNanoseconds: $0.modificationTimeNanoseconds)
                }
                outstanding += state.update(.filesCollected(FileCollection(directory: path, files: files)))
            default:
                break
            }
        }

        /// Answers every directory read and collection, including those the answers cause.
        mutating func answerAll() {
            while outstanding.contains(where: {
                if case .loadDirectory = $0 { return true }
                if case .collectFiles = $0 { return true }
                return false
            }) { answerNext() }
        }
    }

    @Test("keys typed before the first folder is read act on its listing")
    func keysBeforeTheFirstListing() {
        var app = SlowApp()
        app.type("jk")
        #expect(app.state.typeAhead.count == 2)
        app.answerNext()
        #expect(app.state.typeAhead.isEmpty)
        #expect(app.state.browser.current?.name == "sub")
    }

    @Test("l h l typed in one burst ends in the subfolder")
    func openUpOpen() {
        var app = SlowApp()
        app.answerNext()
        app.type("lhl")
        #expect(app.state.browser.directory == "/data")
        app.answerNext()
        #expect(app.state.browser.directory == "/data/sub")
        app.answerNext()
        #expect(app.state.browser.directory == "/data")
        #expect(app.state.browser.current?.name == "sub")
        app.answerNext()
        #expect(app.state.browser.directory == "/data/sub")
        #expect(app.state.typeAhead.isEmpty && app.state.awaited == nil)
    }

    @Test("h h climbs two levels; l l descends two")
    func twoLevels() {
        var app = SlowApp()
        app.answerNext()
        app.type("ll")
        app.answerAll()
        #expect(app.state.browser.directory == "/data/sub/deeper")
        app.type("hh")
        app.answerAll()
        #expect(app.state.browser.directory == "/data")
        #expect(app.state.browser.current?.name == "sub")
    }

    @Test("a listing that cannot be read lets the waiting keys act on the folder still shown")
    func unreadableFolder() {
        var app = SlowApp()
        app.answerNext()
        app.type("lj")
        let index = app.outstanding.firstIndex { if case .loadDirectory = $0 { true } else { false } }!
        app.outstanding.remove(at: index)
        app.outstanding += app.state.update(.directoryLoaded(
            DirectoryListing(path: "/data/sub", entries: [], error: "cannot open /data/sub: Permission denied")))
        #expect(app.state.browser.directory == "/data")
        #expect(app.state.browser.current?.name == "a.txt")
    }

    @Test("Space on a folder then u queues the folder's files: u waits for them")
    func selectFolderThenUpload() {
        var app = SlowApp()
        app.answerNext()
        app.type("jk ")
        app.type("u")
        #expect(app.state.focus == .files)
        app.answerAll()
        #expect(app.state.focus == .queue)
        #expect(app.outstanding.contains { if case .enqueue(let specs) = $0 { specs.count == 1 } else { false } })
    }

    @Test("keys that do not read the folder act while it is read; once a key waits, the keys after it wait too")
    func otherKeysDoNotWait() {
        var app = SlowApp()
        app.type("?")
        #expect(app.state.showsHelp)
        app.type("?")
        app.type("j2")
        #expect(!app.state.showsHelp)
        #expect(app.state.focus == .files, "2 waits behind j")
        app.answerNext()
        #expect(app.state.focus == .form)
        #expect(app.state.browser.current?.name == "a.txt")
    }

    @Test("Ctrl-C quits at once, whatever waits")
    func controlCDoesNotWait() {
        var app = SlowApp()
        app.type("l")
        app.press(.key(.ctrl("c")))
        #expect(app.state.isQuitting)
    }

    @Test("d d d in the Queue removes three jobs, even before the engine confirms one")
    func removeThree() {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid)
        app.type("a")
        app.type("u")
        #expect(app.state.queue.order.count == 2)
        for index in 1...3 {
            let job = UploadJob(id: UploadJobID(Int64(10 + index)), spec: UploadJobSpec(url: "http://h/u", files: []))
            _ = app.state.update(.uploadEventReceived(.queued(job)))
        }
        let before = app.state.queue.order
        var removed: [AppCommand] = []
        for _ in 1...3 { removed += app.state.update(.keyPressed(.char("d"))) }
        #expect(removed == before.prefix(3).map { AppCommand.remove($0) })
        #expect(app.state.queue.order == Array(before.dropFirst(3)))
        // A late event of a removed job does not bring its row back; its removal is then taken.
        _ = app.state.update(.uploadEventReceived(.queued(UploadJob(id: before[0], spec: UploadJobSpec(url: "http://h/u", files: [])))))
        #expect(app.state.queue.order == Array(before.dropFirst(3)))
        _ = app.state.update(.jobsRemoved(Array(before.prefix(3))))
        #expect(app.state.queue.removing.isEmpty)
    }

    @Test("Esc q in the filter editor closes it and quits; Alt-b still moves by a word")
    func escapeThenKeyInAnEditor() {
        var app = AppHarness(directories: AppUpdateTests.tree)
        app.type("/al")
        app.send(.keyPressed(.alt(.character("b"))))
        #expect(app.state.browser.filterEditor != nil)
        let commands = app.send(.keyPressed(.alt(.character("q"))))
        #expect(app.state.browser.filterEditor == nil)
        #expect(commands.last == .quit)
    }

    @Test("Esc q while a form row is edited ends the edit and quits")
    func escapeThenKeyInTheForm() {
        var app = AppHarness(directories: AppUpdateTests.tree)
        app.type("2")
        app.press(.enter)
        #expect(app.state.form.editing != nil)
        let commands = app.send(.keyPressed(.alt(.character("q"))))
        #expect(app.state.form.editing == nil)
        #expect(commands.last == .quit)
    }
}
