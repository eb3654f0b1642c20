import Dispatch
import FerryApp
import Synchronization

/// Runs the model's commands off the interface thread, one batch after another in the order
/// they were submitted, and keeps their answers until the loop takes them: a slow network
/// folder or a large enqueue never freezes the screen.
public final class CommandWorker: Sendable {
    private let performer: any CommandPerformer
    private let queue: DispatchQueue
    private let answers = Mutex<[AppMessage]>([])
    private let onAnswer = Mutex<(@Sendable () -> Void)?>(nil)

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

    /// Runs `commands` on the worker's queue, after every batch submitted before.
    ///
    /// - Parameter commands: The model's commands, in order.
    public func submit(_ commands: [AppCommand]) {
        guard !commands.isEmpty else { return }
        queue.async { [self] in
            let answered = commands.flatMap(performer.perform)
            self.answers.withLock { $0 += answered }
            self.onAnswer.withLock { $0 }?()
        }
    }

    /// Takes the answers that came back, oldest first.
    ///
    /// - Returns: The messages.
    public func takeAnswers() -> [AppMessage] {
        answers.withLock { answers in
            defer { answers = [] }
            return answers
        }
    }

    /// Waits until every submitted batch has run (the form is saved before the journal closes).
    public func waitUntilDone() {
        queue.sync {}
    }
}
