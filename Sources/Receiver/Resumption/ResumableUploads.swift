import NIOCore
import Synchronization

/// The uploads `ferry serve` receives as resumable uploads at `/upload`
/// (`draft-ietf-httpbis-resumable-upload`, interop version 6), by ID: each is being received on
/// one connection, parked after that connection was cut (its ``UploadSession`` kept, so a `PATCH`
/// goes on from ``Standing/offset``), or complete (kept a while so a `HEAD` can say so).
///
/// A parked upload is forgotten `expiration` after it was parked, its files removed; a complete
/// one as long after it completed. Shared by all requests of one server.
final class ResumableUploads: Sendable {
    /// The draft's interop version spoken, for `Upload-Draft-Interop-Version`.
    static let interopVersion = "6"
    /// Where an upload stands, as a `HEAD` says it.
    struct Standing: Sendable, Equatable {
        /// The body bytes the server holds.
        let offset: Int64
        /// Whether the upload is complete.
        let isComplete: Bool
    }

    /// What a request that would go on with an upload gets.
    enum Attachment: Sendable {
        /// The upload, now this request's, at its offset.
        case attached(UploadSession)
        /// Another connection is still receiving it: that connection was closed; ask again in a
        /// moment, once its request has parked the upload.
        case busy
        /// The `PATCH`'s offset is not the upload's.
        case offsetMismatch(Int64)
        /// The upload is complete already.
        case complete
        /// No such upload (never, expired, or removed).
        case unknown
    }

    private enum State {
        case receiving(any Channel, UploadSession?)
        case parked(UploadSession, since: ContinuousClock.Instant)
        case complete(at: ContinuousClock.Instant)
    }

    private struct Entry {
        var state: State
        /// The whole body's length.
        let length: Int64
        /// The offset while parked or receiving (what the session had read when last seen).
        var offset: Int64
    }

    private struct Registry {
        var entries: [String: Entry] = [:]
        /// The upload made for the request a connection is on, until its handler takes it.
        var assignments: [ObjectIdentifier: String] = [:]
        var lastSweep = ContinuousClock.now
    }

    /// How long a parked or complete upload is kept.
    let expiration: Duration
    /// Where an expired upload's `Idempotency-Key` is let go.
    private let keys: IdempotencyKeyStore
    private let registry = Mutex(Registry())

    /// Creates an empty registry.
    ///
    /// - Parameters:
    ///   - expiration: How long an upload is kept once parked or complete.
    ///   - keys: Where an expired upload's `Idempotency-Key` is let go.
    init(expiration: Duration, keys: IdempotencyKeyStore) {
        self.expiration = expiration
        self.keys = keys
    }

    /// Registers a new upload of `length` bytes, being received on `channel`.
    ///
    /// - Returns: Its ID (32 hexadecimal digits).
    func create(length: Int64, on channel: any Channel) -> String {
        var random = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in String(random.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
        let expired = registry.withLock { registry in
            registry.entries[id] = Entry(state: .receiving(channel, nil), length: length, offset: 0)
            registry.assignments[ObjectIdentifier(channel)] = id
            return sweep(&registry)
        }
        discard(expired)
        return id
    }

    /// The upload made for the request `channel` is on, taken (once) by its handler.
    ///
    /// - Parameter channel: The request's connection.
    /// - Returns: The upload's ID, or nil when the request is not a resumable upload.
    func takeAssignment(of channel: any Channel) -> String? {
        registry.withLock { $0.assignments.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Gives the receiving request of a new upload its session, so a cut can park it.
    func adopt(_ session: UploadSession, for id: String) {
        registry.withLock { registry in
            guard case let .receiving(channel, nil)? = registry.entries[id]?.state else { return }
            registry.entries[id]?.state = .receiving(channel, session)
        }
    }

    /// Where an upload stands.
    func standing(of id: String) -> Standing? {
        registry.withLock { registry in
            guard let entry = registry.entries[id] else { return nil }
            switch entry.state {
            case .complete: return Standing(offset: entry.length, isComplete: true)
            case let .receiving(_, session): return Standing(offset: session?.bytesRead ?? entry.offset, isComplete: false)
            case let .parked(session, _): return Standing(offset: session.bytesRead, isComplete: false)
            }
        }
    }

    /// Hands a parked upload to a request that goes on from `offset` on `channel`; a request
    /// still receiving it has its connection closed (the client has given up on it).
    func attach(_ id: String, at offset: Int64?, on channel: any Channel) -> Attachment {
        registry.withLock { registry in
            guard let entry = registry.entries[id] else { return .unknown }
            switch entry.state {
            case .complete:
                return .complete
            case let .receiving(old, _):
                if old !== channel { old.close(promise: nil) }
                return .busy
            case let .parked(session, _):
                if let offset, offset != session.bytesRead { return .offsetMismatch(session.bytesRead) }
                registry.entries[id]?.state = .receiving(channel, session)
                return .attached(session)
            }
        }
    }

    /// Parks an upload whose connection was cut, to go on later.
    ///
    /// - Returns: `false` when the upload was removed meanwhile (`DELETE`): the caller abandons it.
    func park(_ id: String, _ session: UploadSession) -> Bool {
        registry.withLock { registry in
            guard registry.entries[id] != nil else { return false }
            registry.entries[id]?.offset = session.bytesRead
            registry.entries[id]?.state = .parked(session, since: .now)
            return true
        }
    }

    /// Marks an upload complete (its request was answered).
    func complete(_ id: String) {
        registry.withLock { registry in
            registry.entries[id]?.state = .complete(at: .now)
        }
    }

    /// Forgets an upload (it failed, or the client removed it) and returns its parked session,
    /// if it had one, for the caller to abandon.
    func remove(_ id: String) -> UploadSession? {
        registry.withLock { registry in
            guard case let .parked(session, _)? = registry.entries.removeValue(forKey: id)?.state else { return nil }
            return session
        }
    }

    /// Removes what expired (at most once a second); returns the sessions to abandon.
    private func sweep(_ registry: inout Registry) -> [UploadSession] {
        let now = ContinuousClock.now
        guard now - registry.lastSweep >= .seconds(1) else { return [] }
        registry.lastSweep = now
        var expired: [UploadSession] = []
        for (id, entry) in registry.entries {
            switch entry.state {
            case let .parked(session, since) where now - since > expiration:
                expired.append(session)
                registry.entries[id] = nil
            case let .complete(at) where now - at > expiration:
                registry.entries[id] = nil
            default:
                break
            }
        }
        return expired
    }

    /// Abandons expired sessions: their files go, their keys are free again.
    private func discard(_ sessions: [UploadSession]) {
        guard !sessions.isEmpty else { return }
        for key in sessions.compactMap(\.idempotencyKey) { keys.release(key) }
        Task { for session in sessions { await session.reader.abandon() } }
    }
}

extension String {
    /// The text with zeros before it up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
