import Dispatch
import FerryApp
import TerminalUI
import Uploading

/// The interface's event loop on one thread: keys, upload events and command answers in,
/// commands out to a ``CommandWorker``, a frame drawn whenever the state changed.
///
/// Not Sendable: it **must** run on the thread that created the terminal.
public final class InterfaceLoop {
    private let terminal: any TerminalBackend
    private let worker: CommandWorker
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
    public static let reloadInterval = DispatchTimeInterval.seconds(1)

    /// How long `readKey` waits while uploads or commands run: progress redraws and command
    /// answers show about 10 times a second.
    public static let activeTimeoutMilliseconds = 100
    /// How long `readKey` waits when nothing happens; only keys wake the loop then.
    public static let idleTimeoutMilliseconds = 1000

    /// Creates the loop.
    ///
    /// - Parameters:
    ///   - terminal: The started terminal.
    ///   - worker: Where the model's commands run (off this thread).
    ///   - inbox: Where the manager's events arrive.
    ///   - state: The initial state.
    public init(terminal: any TerminalBackend, worker: CommandWorker, inbox: EventInbox, state: AppState) {
        self.terminal = terminal
        self.worker = worker
        self.inbox = inbox
        self.state = state
    }

    /// Runs until the user quits or a termination signal arrives; the commands handed to the
    /// worker have all run when it returns.
    ///
    /// - Parameter initial: Messages to apply first (restored jobs, say).
    /// - Returns: The termination signal that ended the loop, or nil when the user quit.
    public func run(initial: [AppMessage]) -> Int32? {
        defer { worker.waitUntilDone() }
        pending = initial
        worker.submit(state.initialCommands)
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
            worker.submit(state.update(.clockTicked(now)))
            pending += worker.takeAnswers()
            // Events are applied straight from the inbox's batches, each let go once applied:
            // after queueing 100,000 files they must not be copied into an array of messages.
            var batches = inbox.drain()
            if !pending.isEmpty || !batches.isEmpty {
                dirty = true
                busyUntil = .now() + .seconds(2)
            }
            applyPending()
            var removed: [UploadJobID] = []
            for index in batches.indices {
                for event in batches[index] {
                    if case .removed(let id) = event {
                        removed.append(id)
                        continue
                    }
                    if !removed.isEmpty {
                        worker.submit(state.update(.jobsRemoved(removed)))
                        removed = []
                    }
                    worker.submit(state.update(.uploadEventReceived(event)))
                }
                batches[index] = []
            }
            if !removed.isEmpty { worker.submit(state.update(.jobsRemoved(removed))) }
            if state.isQuitting { break }
            if dirty {
                terminal.draw(AppView.render(state, size: terminal.size))
                dirty = false
            }
            let busy = state.queue.hasActiveJobs || worker.isWorking || DispatchTime.now() < busyUntil
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

    /// Applies the waiting messages and hands their commands to the worker.
    private func applyPending() {
        let batch = pending
        pending = []
        for message in batch { worker.submit(state.update(message)) }
    }
}
