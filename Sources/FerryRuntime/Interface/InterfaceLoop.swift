import Dispatch
import FerryApp
import TerminalUI
import UploadModel

/// The interface's event loop on one thread: keys, upload events and command answers in,
/// commands out to a ``CommandWorker``, a frame drawn whenever the state changed.
///
/// The loop sleeps in the terminal's wait for keys, which upload events and command answers end
/// at once (the terminal's ``TerminalBackend/waker``): idle, it wakes once a second (to look at
/// the folder watcher); while uploads run, at each whole second (countdowns) and whenever an
/// event arrives, drawing at most one frame per ``frameNanoseconds`` (keys are drawn at once).
///
/// Not Sendable: it **must** run on the thread that created the terminal.
public final class InterfaceLoop {
    private let terminal: any TerminalBackend
    private let process: any InterfaceProcess
    private let worker: CommandWorker
    private let inbox: EventInbox
    private var state: AppState
    private var pending: [AppMessage] = []
    private let watcher = DirectoryWatcher()
    /// A change of the folder shown waits for this moment (a folder being written to is read
    /// again at most once a second).
    private var nextReload = DispatchTime.now()
    private var isReloadPending = false

    /// The shortest time between two reloads of a changing folder.
    public static let reloadInterval = DispatchTimeInterval.seconds(1)

    /// The shortest time between two frames, in nanoseconds (33 ms): events arriving faster are
    /// drawn together.
    public static let frameNanoseconds: UInt64 = 33_000_000
    /// How long the loop sleeps when nothing wakes it: the folder watcher is read this often.
    public static let idleTimeoutMilliseconds = 1000
    /// The most keys of one burst applied before a frame is drawn.
    static let keysPerFrame = 64

    /// Creates the loop, and has the inbox and the worker wake the terminal's wait for keys.
    ///
    /// - Parameters:
    ///   - terminal: The started terminal.
    ///   - process: The process around it: termination signals, job control, the clipboard.
    ///   - worker: Where the model's commands run (off this thread).
    ///   - inbox: Where the manager's events arrive.
    ///   - state: The initial state.
    public init(
        terminal: any TerminalBackend, process: any InterfaceProcess, worker: CommandWorker, inbox: EventInbox,
        state: AppState
    ) {
        self.terminal = terminal
        self.process = process
        self.worker = worker
        self.inbox = inbox
        self.state = state
        let waker = terminal.waker
        inbox.notify { waker.wake() }
        worker.notify { waker.wake() }
    }

    /// Runs until the user quits or a termination signal arrives; the commands handed to the
    /// worker have all run when it returns.
    ///
    /// - Parameter initial: Messages to apply first (restored jobs, say).
    /// - Returns: The termination signal that ended the loop, or nil when the user quit.
    public func run(initial: [AppMessage]) -> Int32? {
        defer { worker.waitUntilDone() }
        pending = initial
        carryOut(state.start())
        var dirty = true
        var lastFrame: DispatchTime?
        while !state.isQuitting {
            if process.pendingTerminationSignal != nil {
                pending.append(.terminationRequested)
            }
            noteDirectoryChanges()
            // Countdowns and stall times show whole seconds: redraw when a second has passed.
            let now = SchedulerInstant(nanoseconds: Int64(clamping: DispatchTime.now().uptimeNanoseconds))
            let second = now.nanoseconds / 1_000_000_000
            if state.queue.hasActiveJobs && second != state.now.map({ $0.nanoseconds / 1_000_000_000 }) {
                dirty = true
            }
            let notice = state.notice
            carryOut(state.update(.clockTicked(now)))
            if state.notice != notice { dirty = true }
            pending += worker.takeAnswers()
            // Events are applied straight from the inbox's batches, each let go once applied:
            // after queueing 100,000 files they must not be copied into an array of messages.
            var batches = inbox.drain()
            if !pending.isEmpty || !batches.isEmpty {
                dirty = true
            }
            // What the user typed shows at once; only events and answers wait for the next frame.
            let typed = pending.contains { if case .keyPressed = $0 { true } else { false } }
            applyPending()
            var removed: [UploadJobID] = []
            for index in batches.indices {
                for event in batches[index] {
                    if case .removed(let id) = event {
                        removed.append(id)
                        continue
                    }
                    if !removed.isEmpty {
                        carryOut(state.update(.jobsRemoved(removed)))
                        removed = []
                    }
                    carryOut(state.update(.uploadEventReceived(event)))
                }
                batches[index] = []
            }
            if !removed.isEmpty { carryOut(state.update(.jobsRemoved(removed))) }
            if state.isQuitting { break }
            var timeout = sleepMilliseconds(now: now)
            if dirty {
                let sinceFrame = lastFrame.map { DispatchTime.now().uptimeNanoseconds - $0.uptimeNanoseconds }
                if !typed, let sinceFrame, sinceFrame < Self.frameNanoseconds {
                    timeout = Int((Self.frameNanoseconds - sinceFrame + 999_999) / 1_000_000)
                } else {
                    terminal.draw(AppView.render(state, size: terminal.size))
                    lastFrame = .now()
                    dirty = false
                }
            }
            if let key = terminal.readKey(timeoutMilliseconds: timeout) {
                pending.append(.keyPressed(key))
                // The rest of a burst (keys typed ahead, a paste) is taken before the next frame.
                while pending.count < Self.keysPerFrame, let more = terminal.readKey(timeoutMilliseconds: 0) {
                    pending.append(.keyPressed(more))
                }
            }
        }
        return process.pendingTerminationSignal
    }

    /// How long to sleep when nothing wakes the loop: to the next whole second while uploads
    /// run (their countdowns), to the next allowed reload of a changed folder, else a second.
    private func sleepMilliseconds(now: SchedulerInstant) -> Int {
        var timeout = Self.idleTimeoutMilliseconds
        if state.queue.hasActiveJobs {
            timeout = Int(1000 - (now.nanoseconds % 1_000_000_000) / 1_000_000)
        }
        if isReloadPending {
            let wait = nextReload.uptimeNanoseconds > now.nanoseconds.magnitude
                ? Int((nextReload.uptimeNanoseconds - now.nanoseconds.magnitude) / 1_000_000) + 1 : 0
            timeout = min(timeout, wait)
        }
        return max(1, timeout)
    }

    /// Hands commands to the worker, but suspends (Ctrl-Z) or writes to the clipboard at once,
    /// on this thread, when the model asks for it: the terminal is this thread's, and the
    /// process side acts on it.
    private func carryOut(_ commands: [AppCommand]) {
        var forWorker: [AppCommand] = []
        for command in commands {
            switch command {
            case .suspend:
                worker.submit(forWorker)
                forWorker = []
                process.suspend()
            case .copyToClipboard(let text):
                process.copyToClipboard(text)
            default:
                forWorker.append(command)
            }
        }
        worker.submit(forWorker)
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
        for message in batch { carryOut(state.update(message)) }
    }

}
