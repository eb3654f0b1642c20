import FerryRuntime
import Foundation
import TerminalUI

/// An in-memory terminal, and the process around it, for interface-loop tests (as ratatui's
/// `TestBackend`): it records every frame drawn, suspension and clipboard text, and replays a
/// script of keys, resizes, waits, signals and the test's own actions.
///
/// When the script runs out it answers Ctrl-C, so a loop under test always ends.
public final class FakeTerminal: TerminalBackend, InterfaceProcess {
    /// One step of the script, taken by ``readKey(timeoutMilliseconds:)``.
    public enum Step: Sendable {
        /// The key is pressed.
        case key(KeyEvent)
        /// Nothing is pressed until the last frame shows `text` (or the patience runs out, which
        /// ``unmetWaits`` records): the loop turns while the worker's answers come back.
        case waitForScreen(containing: String)
        /// The terminal takes a new size and reports it.
        case resize(Size)
        /// A termination signal arrives (as the ncurses terminal records a deferred one).
        case signal(Int32)
        /// The test acts (opens a gate, writes a file) while the loop runs.
        case action(@Sendable () -> Void)
        /// No key is pressed, and the loop's wait for keys really waits, as a real terminal's
        /// would: up to the loop's timeout, or until the ``waker`` is woken (counted in
        /// ``wokenWaits``); the step is done once the last frame shows `text` (or the patience
        /// runs out, which ``unmetWaits`` records).
        case idleUntilScreen(containing: String)
    }

    /// A waker that counts its wakes and ends an idle step's wait.
    ///
    /// `@unchecked Sendable`: `wakes` is only read and written with `condition` locked.
    public final class FakeWaker: TerminalWaking, @unchecked Sendable {
        private let condition = NSCondition()
        private var wakes = 0

        /// How many times it was woken.
        public var count: Int {
            condition.lock()
            defer { condition.unlock() }
            return wakes
        }

        public func wake() {
            condition.lock()
            wakes += 1
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until woken (after `seen` wakes) or `milliseconds` pass.
        ///
        /// - Returns: Whether it was woken.
        func wait(milliseconds: Int, seen: Int) -> Bool {
            let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
            condition.lock()
            defer { condition.unlock() }
            while wakes <= seen {
                if !condition.wait(until: deadline) { return wakes > seen }
            }
            return true
        }
    }

    private var seenWakes = 0

    /// The screen size in cells.
    public private(set) var size: Size
    /// Every frame drawn, oldest first.
    public private(set) var frames: [CellBuffer] = []
    /// The signal a ``Step/signal(_:)`` step delivered, if any.
    public private(set) var pendingTerminationSignal: Int32?
    /// The texts of ``Step/waitForScreen(containing:)`` steps that never showed.
    public private(set) var unmetWaits: [String] = []
    /// The timeouts the loop asked ``readKey(timeoutMilliseconds:)`` to wait, in order.
    public private(set) var requestedTimeouts: [Int] = []
    /// How many times the loop suspended (Ctrl-Z).
    public private(set) var suspensions = 0
    /// Counts wakes, and ends an ``Step/idleUntilScreen(containing:)`` step's wait.
    public let fakeWaker = FakeWaker()
    /// How many waits of ``Step/idleUntilScreen(containing:)`` steps a wake ended (not their
    /// timeout).
    public private(set) var wokenWaits = 0

    /// The loop's waker: ``fakeWaker``.
    public var waker: any TerminalWaking { fakeWaker }

    private var script: [Step]
    private let patience: Duration
    private var waitDeadline: ContinuousClock.Instant?

    /// Creates a terminal.
    ///
    /// - Parameters:
    ///   - size: The screen size.
    ///   - script: What happens, in order.
    ///   - patience: How long a ``Step/waitForScreen(containing:)`` step waits at most.
    public init(size: Size, script: [Step], patience: Duration = .seconds(10)) {
        self.size = size
        self.script = script
        self.patience = patience
    }

    /// The last frame's lines (empty before the first frame).
    public var screen: [String] { frames.last?.lines() ?? [] }

    /// The texts put on the clipboard, oldest first.
    public private(set) var clipboard: [String] = []

    /// Records the text.
    ///
    /// - Parameter text: The text.
    public func copyToClipboard(_ text: String) {
        clipboard.append(text)
    }

    /// Records the suspension; the next key is the script's.
    public func suspend() {
        suspensions += 1
    }

    /// Records the frame.
    ///
    /// - Parameter buffer: The frame.
    public func draw(_ buffer: CellBuffer) {
        frames.append(buffer)
    }

    /// Takes the next step of the script (never sleeps longer than a few milliseconds).
    ///
    /// - Parameter timeoutMilliseconds: Recorded in ``requestedTimeouts``.
    /// - Returns: The step's key or resize; nil while waiting or after a signal.
    public func readKey(timeoutMilliseconds: Int) -> KeyEvent? {
        requestedTimeouts.append(timeoutMilliseconds)
        guard pendingTerminationSignal == nil else { return nil }
        guard let step = script.first else { return .key(.ctrl("c")) }
        switch step {
        case .idleUntilScreen(let text):
            // Wakes before the step began do not count.
            if waitDeadline == nil { seenWakes = fakeWaker.count }
            let deadline = waitDeadline ?? ContinuousClock.now + patience
            if screen.contains(where: { $0.contains(text) }) || ContinuousClock.now >= deadline {
                if !screen.contains(where: { $0.contains(text) }) { unmetWaits.append(text) }
                script.removeFirst()
                waitDeadline = nil
                return nil
            }
            waitDeadline = deadline
            let budget = timeoutMilliseconds < 0 ? 1000 : min(timeoutMilliseconds, 1000)
            if fakeWaker.wait(milliseconds: budget, seen: seenWakes) { wokenWaits += 1 }
            seenWakes = fakeWaker.count
            return nil
        case .key(let event):
            script.removeFirst()
            return event
        case .resize(let newSize):
            script.removeFirst()
            size = newSize
            return .resize(newSize)
        case .signal(let number):
            script.removeFirst()
            pendingTerminationSignal = number
            return nil
        case .action(let act):
            script.removeFirst()
            act()
            return nil
        case .waitForScreen(let text):
            let deadline = waitDeadline ?? ContinuousClock.now + patience
            if screen.contains(where: { $0.contains(text) }) || ContinuousClock.now >= deadline {
                if !screen.contains(where: { $0.contains(text) }) { unmetWaits.append(text) }
                script.removeFirst()
                waitDeadline = nil
            } else {
                waitDeadline = deadline
                Thread.sleep(forTimeInterval: 0.002)
            }
            return nil
        }
    }
}
