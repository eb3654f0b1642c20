import Synchronization

/// The uploads `ferry serve` received with an `Idempotency-Key`
/// (`draft-ietf-httpapi-idempotency-key-header`), so a repeat of a stored one is stored once and
/// answered with the first answer.
///
/// A key is claimed when its request arrives (``claim(_:fingerprint:)``): a new key is held while
/// the request is received, then either completed with the stored upload's answer or released
/// (nothing was stored: the client may try again). Only stored uploads are kept, in memory, the
/// latest ``capacity`` of them; a restart forgets them. Shared by all requests of one server.
final class IdempotencyKeyStore: Sendable {
    /// What identifies the request a key was first used for: its path and declared length (the
    /// boundary, and so the bytes, may differ between attempts; the length does not).
    struct Fingerprint: Sendable, Equatable {
        /// The request's path, without its query.
        let path: String
        /// The request's `Content-Length`, nil when it was chunked.
        let contentLength: Int64?
    }

    /// The answer a stored upload was given.
    struct Answer: Sendable {
        /// Its status.
        let status: Int
        /// What was stored.
        let record: UploadRecord
    }

    /// What a request's key turns out to be.
    enum Claim: Sendable {
        /// New: the request is received; complete or release the key afterwards.
        case fresh
        /// Stored before: answer with this, store nothing.
        case replay(Answer)
        /// A request with this key is being received now.
        case inUse
        /// The key was first used for another request.
        case reused
    }

    private struct Entry {
        let fingerprint: Fingerprint
        var answer: Answer?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// The completed keys, oldest first from `firstKept`, for eviction.
        var completedOrder: [String] = []
        /// Where the keys still kept begin in `completedOrder`.
        var firstKept = 0
    }

    /// How many completed keys are kept.
    let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty store.
    ///
    /// - Parameter capacity: How many completed keys are kept; the oldest go first.
    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Claims `key` for a request that has just arrived.
    ///
    /// - Parameters:
    ///   - key: The request's key.
    ///   - fingerprint: What identifies the request.
    /// - Returns: What the key is.
    func claim(_ key: String, fingerprint: Fingerprint) -> Claim {
        state.withLock { state in
            guard let entry = state.entries[key] else {
                state.entries[key] = Entry(fingerprint: fingerprint, answer: nil)
                return .fresh
            }
            guard entry.fingerprint == fingerprint else { return .reused }
            return entry.answer.map(Claim.replay) ?? .inUse
        }
    }

    /// Records the answer of the stored upload a fresh key's request made.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - answer: The answer.
    func complete(_ key: String, with answer: Answer) {
        state.withLock { state in
            guard state.entries[key] != nil else { return }
            state.entries[key]?.answer = answer
            state.completedOrder.append(key)
            while state.completedOrder.count - state.firstKept > capacity {
                state.entries[state.completedOrder[state.firstKept]] = nil
                state.firstKept += 1
            }
            if state.firstKept > 4_096, state.firstKept * 2 > state.completedOrder.count {
                state.completedOrder.removeFirst(state.firstKept)
                state.firstKept = 0
            }
        }
    }

    /// Lets a fresh key go: its request stored nothing.
    ///
    /// - Parameter key: The key.
    func release(_ key: String) {
        state.withLock { state in
            if state.entries[key]?.answer == nil { state.entries[key] = nil }
        }
    }
}
