import FerryApp
import Foundation
import TerminalUI
import UploadModel

/// Drives an ``AppState`` with key messages and a fake engine, as the runtime would.
struct AppHarness {
    var state: AppState
    var engine = FakeUploadEngine()
    /// Directory listings served for `loadDirectory`, by path.
    var directories: [String: [BrowserEntry]]
    /// File collections served for `collectFiles`, by path.
    var collections: [String: FileCollection] = [:]

    init(directory: String = "/data", directories: [String: [BrowserEntry]], settings: FormSettings = FormSettings(),
         size: Size = Size(width: 80, height: 20)) {
        self.directories = directories
        state = AppState(directory: directory, settings: settings, homeDirectory: "/home/me", size: size,
                         timeZone: TimeZone(identifier: "UTC")!)
        run(state.start())
    }

    /// Sends one message and carries out the commands it yields.
    @discardableResult
    mutating func send(_ message: AppMessage) -> [AppCommand] {
        let commands = state.update(message)
        run(commands)
        return commands
    }

    /// Presses keys, given as characters; returns every command produced.
    @discardableResult
    mutating func type(_ text: String) -> [AppCommand] {
        text.flatMap { send(.keyPressed(.char($0))) }
    }

    /// Presses one named key.
    @discardableResult
    mutating func press(_ key: Key) -> [AppCommand] {
        send(.keyPressed(.key(key)))
    }

    /// The screen for the current state.
    func screen(width: Int = 80, height: Int = 20) -> CellBuffer {
        AppView.render(state, size: Size(width: width, height: height))
    }

    private mutating func run(_ commands: [AppCommand]) {
        for command in commands {
            switch command {
            case .loadDirectory(let path, let focus):
                let listing = directories[path].map { DirectoryListing(path: path, entries: $0, focusName: focus) }
                    ?? DirectoryListing(path: path, entries: [], error: "cannot open \(path): Permission denied")
                send(.directoryLoaded(listing))
            case .collectFiles(let path, _):
                send(.filesCollected(collections[path] ?? FileCollection(directory: path, files: [])))
            default:
                for message in engine.handle([command]) { send(message) }
            }
        }
    }
}

/// A file entry for tests.
func file(_ name: String, in directory: String = "/data", size: Int64 = 100) -> BrowserEntry {
    BrowserEntry(name: name, path: directory + "/" + name, kind: .file, size: size,
                 modificationTimeNanoseconds: 1_700_000_000_000_000_000)
}

/// A directory entry for tests.
func folder(_ name: String, in directory: String = "/data") -> BrowserEntry {
    BrowserEntry(name: name, path: directory + "/" + name, kind: .directory,
                 modificationTimeNanoseconds: 1_700_000_000_000_000_000)
}
