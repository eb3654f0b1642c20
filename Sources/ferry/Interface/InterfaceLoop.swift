import Dispatch
import FerryApp
import Foundation
import NcursesBackend
import TerminalUI
import Uploading

/// The interface's event loop on one thread: keys and upload events in, commands out, a frame
/// drawn whenever the state changed.
///
/// Not Sendable: it **must** run on the thread that created the terminal.
final class InterfaceLoop {
    private let terminal: NcursesTerminal
    private let manager: UploadManager
    private let journal: UploadJournal?
    private let inbox: EventInbox
    private var state: AppState
    private var pending: [AppMessage] = []
    private var busyUntil = DispatchTime.now()
    private let watcher = DirectoryWatcher()
    /// A change of the folder shown waits for this moment (a folder being written to is read
    /// again at most once a second).
    private var nextReload = DispatchTime.now()
    private var isReloadPending = false

    /// The shortest time between two reloads of a changing folder.
    static let reloadInterval = DispatchTimeInterval.seconds(1)

    /// How long `readKey` waits while uploads run: progress redraws about 10 times a second.
    static let activeTimeoutMilliseconds = 100
    /// How long `readKey` waits when nothing happens; only keys wake the loop then.
    static let idleTimeoutMilliseconds = 1000

    /// Creates the loop.
    ///
    /// - Parameters:
    ///   - terminal: The started terminal.
    ///   - manager: The upload engine.
    ///   - journal: The journal the form is saved in.
    ///   - inbox: Where the manager's events arrive.
    ///   - state: The initial state.
    init(terminal: NcursesTerminal, manager: UploadManager, journal: UploadJournal?, inbox: EventInbox, state: AppState) {
        self.terminal = terminal
        self.manager = manager
        self.journal = journal
        self.inbox = inbox
        self.state = state
    }

    /// Runs until the user quits or a termination signal arrives.
    ///
    /// - Parameter initial: Messages to apply first (restored jobs, say).
    /// - Returns: The termination signal that ended the loop, or nil when the user quit.
    func run(initial: [AppMessage]) -> Int32? {
        pending = initial
        execute(state.initialCommands)
        var dirty = true
        while !state.isQuitting {
            if terminal.pendingTerminationSignal != nil {
                pending.append(.terminationRequested)
            }
            noteDirectoryChanges()
            // Countdowns and stall times show whole seconds: redraw when a second has passed.
            let now = SchedulerInstant(nanoseconds: Int64(clamping: DispatchTime.now().uptimeNanoseconds))
            let second = now.nanoseconds / 1_000_000_000
            if state.queue.hasActiveJobs && second != state.now.map({ $0.nanoseconds / 1_000_000_000 }) {
                dirty = true
            }
            execute(state.update(.clockTicked(now)))
            // Events are applied straight from the inbox's array: after queueing 100,000 files
            // they must not be copied into a second array of messages.
            let events = inbox.drain()
            if !pending.isEmpty || !events.isEmpty {
                dirty = true
                busyUntil = .now() + .seconds(2)
            }
            applyPending()
            for event in events {
                execute(state.update(.uploadEventReceived(event)))
                applyPending()
            }
            if state.isQuitting { break }
            if dirty {
                terminal.draw(AppView.render(state, size: terminal.size))
                dirty = false
            }
            let busy = state.queue.hasActiveJobs || DispatchTime.now() < busyUntil
            let timeout = busy ? Self.activeTimeoutMilliseconds : Self.idleTimeoutMilliseconds
            if let key = terminal.readKey(timeoutMilliseconds: timeout) {
                pending.append(.keyPressed(key))
            }
        }
        return terminal.pendingTerminationSignal
    }

    /// Watches the folder shown and queues ``AppMessage/directoryChanged(_:)`` when it changed,
    /// at most once per ``reloadInterval``.
    private func noteDirectoryChanges() {
        let directory = state.browser.directory
        if watcher.directory != directory {
            watcher.watch(directory)
            isReloadPending = false
        }
        if watcher.takeChanges() { isReloadPending = true }
        guard isReloadPending, DispatchTime.now() >= nextReload else { return }
        isReloadPending = false
        nextReload = .now() + Self.reloadInterval
        pending.append(.directoryChanged(directory))
    }

    /// Applies the waiting messages, and the messages their commands answer with.
    private func applyPending() {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            for message in batch { execute(state.update(message)) }
        }
    }

    private func execute(_ commands: [AppCommand]) {
        for command in commands {
            pending += perform(command)
        }
    }

    private func perform(_ command: AppCommand) -> [AppMessage] {
        switch command {
        case .loadDirectory(let path, let focusName):
            return [.directoryLoaded(DirectoryReader.read(path, focusName: focusName))]
        case .collectFiles(let path):
            return [.filesCollected(DirectoryReader.collectFiles(under: path))]
        case .enqueue(let specs):
            do {
                try manager.enqueue(specs)
            } catch {
                return [.commandFailed("could not queue: \(error.description)")]
            }
        case .retry(let id): manager.retry(id)
        case .retryFailedAndCancelled: manager.retryFailedAndCancelled()
        case .cancel(let id): manager.cancel(id)
        case .cancelAll: manager.cancelAll()
        case .setPaused(let paused): paused ? manager.pause() : manager.resume()
        case .rememberPause(let paused):
            do {
                try journal?.saveFormState(paused, forKey: Interface.pauseKey)
            } catch {
                return [.commandFailed("could not remember the pause: \(error.description)")]
            }
        case .setConcurrency(let limit): manager.setConcurrencyLimit(limit)
        case .remove(let id): manager.remove(id)
        case .clearSucceeded: manager.clearSucceeded()
        case .saveForm(let settings):
            do {
                try journal?.saveFormState(settings)
            } catch {
                return [.commandFailed("could not save the form: \(error.description)")]
            }
        case .quit:
            break
        }
        return []
    }
}
