import Dispatch
import FerryApp
import Synchronization

/// Runs the model's commands off the interface thread, one batch after another in the order
/// they were submitted, and keeps their answers until the loop takes them: a slow network
/// folder or a large enqueue never freezes the screen.
public final class CommandWorker: Sendable {
    private let performer: any CommandPerformer
    private let queue: DispatchQueue
    private let results = Mutex(Results())
    private let onAnswer = Mutex<(@Sendable () -> Void)?>(nil)

    /// What the queue has answered, and how many batches it still has to run.
    private struct Results {
        var answers: [AppMessage] = []
        var outstanding = 0
    }

    /// Creates a worker.
    ///
    /// - Parameters:
    ///   - performer: What carries the commands out.
    ///   - queue: The serial queue they run on.
    public init(performer: any CommandPerformer,
                queue: DispatchQueue = DispatchQueue(label: "ferry.interface.commands")) {
        self.performer = performer
        self.queue = queue
    }

    /// Sets what to call when a batch has run (the loop's waker), replacing any earlier.
    ///
    /// - Parameter wake: Called on the worker's queue.
    public func notify(_ wake: @escaping @Sendable () -> Void) {
        onAnswer.withLock { $0 = wake }
    }

    /// Whether a submitted batch has not finished yet.
    public var isWorking: Bool { results.withLock { $0.outstanding > 0 } }

    /// Runs `commands` on the worker's queue, after every batch submitted before.
    ///
    /// - Parameter commands: The model's commands, in order.
    public func submit(_ commands: [AppCommand]) {
        guard !commands.isEmpty else { return }
        results.withLock { $0.outstanding += 1 }
        queue.async { [self] in
            let answers = commands.flatMap(performer.perform)
            self.results.withLock { results in
                results.answers += answers
                results.outstanding -= 1
            }
            self.onAnswer.withLock { $0 }?()
        }
    }

    /// Takes the answers that came back, oldest first.
    ///
    /// - Returns: The messages.
    public func takeAnswers() -> [AppMessage] {
        results.withLock { results in
            defer { results.answers = [] }
            return results.answers
        }
    }

    /// Waits until every submitted batch has run (the form is saved before the journal closes).
    public func waitUntilDone() {
        queue.sync {}
    }
}
