import FoundationEssentials
import Synchronization

/// The tus uploads a receiver knows, by ID: each one's ``TusUploadStateMachine``.
///
/// Shared by all requests of one server; the table lives in a `Mutex`, so it is `Sendable`.
/// Every event runs under the lock, so two requests never both win an upload.
final class TusUploads: Sendable {
    private let machines = Mutex<[String: TusUploadStateMachine]>([:])

    /// Adds an upload.
    ///
    /// - Parameter machine: The new (or restored) upload.
    func insert(_ machine: TusUploadStateMachine) {
        machines.withLock { $0[machine.info.id] = machine }
    }

    /// Runs an event on an upload.
    ///
    /// - Parameters:
    ///   - id: The upload's ID.
    ///   - event: Runs with the lock held; it **must** not block.
    /// - Returns: What `event` returned, or `nil` when no upload has that ID.
    @discardableResult
    func update<T>(_ id: String, _ event: (inout TusUploadStateMachine) -> T) -> T? {
        machines.withLock { machines in
            guard var machine = machines[id] else { return nil }
            let result = event(&machine)
            machines[id] = machine
            return result
        }
    }

    /// Whether an upload has this ID.
    ///
    /// - Parameter id: The upload's ID.
    /// - Returns: `true` while the upload is known (expired ones too, which answer 410).
    func contains(_ id: String) -> Bool {
        machines.withLock { $0[id] != nil }
    }

    /// Forgets an upload.
    ///
    /// - Parameter id: The upload's ID.
    func remove(_ id: String) {
        _ = machines.withLock { $0.removeValue(forKey: id) }
    }

    /// Sweeps every upload (``TusUploadStateMachine/sweep(now:)``), forgetting those it says to.
    ///
    /// - Parameter now: The current time.
    /// - Returns: The IDs whose files are to be removed: expired ones (which stay known, to
    ///   answer 410) and forgotten ones (only the `.info` of a finished upload is left).
    func sweep(now: Date) -> [String] {
        machines.withLock { machines in
            var due: [String] = []
            for id in Array(machines.keys) {
                switch machines[id]!.sweep(now: now) {
                case .keep:
                    break
                case .expire:
                    due.append(id)
                case .forget:
                    machines[id] = nil
                    due.append(id)
                }
            }
            return due
        }
    }
}
