import FoundationEssentials

/// One tus upload's life, as pure events and actions (no I/O; ``TusHandler`` carries the
/// actions out and ``TusStaging`` holds the bytes):
///
/// ```
///  created ─▶ open(offset) ─(PATCH at offset)─▶ patching ─(bytes kept)─▶ open(offset + n)
///               │  ▲                                 │  ├──(offset = length)─▶ finishing ─(moved)─▶ finished
///               │  │                                 │  │                         └──(move failed)─▶ open(length)
///               │  └──(bytes discarded: checksum)────┘  └──(disk full)─▶ gone: its files removed (404 from then on)
///               ├──(DELETE)─▶ gone (404 from then on)
///               └──(Upload-Expires passed, no request in flight)─▶ expired (410)
/// ```
/// One request at a time changes an upload: a PATCH or DELETE while a PATCH is in flight is
/// answered 423 Locked. The expiry moves to `now + expiresAfter` with each PATCH that ends.
struct TusUploadStateMachine: Sendable {
    /// What a HEAD answers.
    enum HeadAction: Equatable {
        /// Answer with these headers.
        case answer(offset: Int64, length: Int64, metadata: String?, expiresAt: Date?)
        /// Refuse (410 for an expired upload).
        case refuse(ReceiverError.TusRefusalReason)
    }

    /// What to do with a PATCH (or the body of a creation-with-upload).
    enum PatchAction: Equatable {
        /// Read at most `remaining` bytes and store them at the offset; then call
        /// ``patchEnded(storedBytes:now:)`` or ``patchDiscarded()``, or remove the upload (a
        /// full disk).
        case accept(remaining: Int64)
        /// The upload is finished and the PATCH adds nothing: answer its offset, read nothing.
        case alreadyComplete(offset: Int64)
        /// Refuse without reading the body.
        case refuse(ReceiverError.TusRefusalReason)
    }

    /// What the periodic sweep does with an upload.
    enum SweepAction: Equatable {
        /// Nothing yet.
        case keep
        /// It expired unfinished: remove its files; it answers 410 from now on.
        case expire
        /// It finished long enough ago: remove its `.info` and forget it (its file stays in the
        /// upload directory).
        case forget
    }

    /// What to do once a PATCH's bytes are stored.
    enum PatchEndAction: Equatable {
        /// Persist the new offset and answer it.
        case stored(offset: Int64)
        /// Every byte has arrived: move the file into the upload directory, then call
        /// ``finished(_:)`` or ``finishFailed()``.
        case finish
    }

    /// What to do with a DELETE.
    enum TerminateAction: Equatable {
        /// Remove the upload's files and forget it (204).
        case remove
        /// Refuse (423 while a PATCH is in flight).
        case refuse(ReceiverError.TusRefusalReason)
    }

    private enum Phase: Equatable {
        case open
        case patching
        case finishing
        case finished
        case expired
    }

    private var phase: Phase
    /// What is persisted of the upload.
    private(set) var info: TusUploadInfo
    /// How long an unfinished upload lives after its last PATCH.
    let expiresAfter: Duration

    /// A new upload, with nothing stored yet.
    ///
    /// - Parameters:
    ///   - id: Its ID.
    ///   - length: `Upload-Length`.
    ///   - metadata: `Upload-Metadata` as sent, if any.
    ///   - now: The current time.
    ///   - expiresAfter: How long it lives without a PATCH.
    init(id: String, length: Int64, metadata: String?, now: Date, expiresAfter: Duration) {
        self.expiresAfter = expiresAfter
        self.info = TusUploadInfo(
            id: id, length: length, offset: 0, metadata: metadata, expiresAt: Self.expiry(now, expiresAfter), file: nil)
        self.phase = .open
    }

    /// An upload read back from the staging folder.
    ///
    /// - Parameters:
    ///   - info: What was persisted.
    ///   - expiresAfter: How long it lives without a PATCH.
    init(restoring info: TusUploadInfo, expiresAfter: Duration) {
        self.info = info
        self.expiresAfter = expiresAfter
        self.phase = info.file == nil ? .open : .finished
    }

    /// Whether every byte arrived but the file was not moved yet (a restart between the two).
    var isCompleteButNotMoved: Bool {
        phase == .open && info.offset == info.length
    }

    /// A HEAD arrived.
    ///
    /// - Parameter now: The current time.
    /// - Returns: The headers to answer, or a refusal.
    func headRequested(now: Date) -> HeadAction {
        if phase == .expired || (phase == .open && now >= info.expiresAt) {
            return .refuse(.uploadExpired(id: info.id))
        }
        return .answer(
            offset: info.offset, length: info.length, metadata: info.metadata, expiresAt: phase == .finished ? nil : info.expiresAt)
    }

    /// A PATCH arrived (or the body of a creation-with-upload, at offset 0).
    ///
    /// - Parameters:
    ///   - offset: Its `Upload-Offset`.
    ///   - bodyLength: Its `Content-Length`, if it has one.
    ///   - now: The current time.
    /// - Returns: Accept (the upload is then locked until the PATCH ends) or refuse.
    mutating func patchRequested(offset: Int64, bodyLength: Int64?, now: Date) -> PatchAction {
        switch phase {
        case .expired:
            return .refuse(.uploadExpired(id: info.id))
        case .patching, .finishing:
            return .refuse(.uploadBusy(id: info.id))
        case .open where now >= info.expiresAt:
            return .refuse(.uploadExpired(id: info.id))
        case .open, .finished:
            break
        }
        guard offset == info.offset else {
            return .refuse(.offsetMismatch(expected: info.offset, received: offset))
        }
        let remaining = info.length - info.offset
        if let bodyLength, bodyLength > remaining {
            return .refuse(.exceedsLength(length: info.length, offset: info.offset, bodyLength: bodyLength))
        }
        if phase == .finished {
            return .alreadyComplete(offset: info.offset)
        }
        phase = .patching
        return .accept(remaining: remaining)
    }

    /// The accepted PATCH ended with `storedBytes` kept (all of its body, or what arrived
    /// before its connection broke).
    ///
    /// - Parameters:
    ///   - storedBytes: Bytes written at the offset, at most the `remaining` of ``PatchAction/accept(remaining:)``.
    ///   - now: The current time.
    /// - Returns: Persist and answer the new offset, or finish.
    mutating func patchEnded(storedBytes: Int64, now: Date) -> PatchEndAction {
        precondition(phase == .patching, "patchEnded without an accepted PATCH")
        info.offset += storedBytes
        info.expiresAt = Self.expiry(now, expiresAfter)
        if info.offset == info.length {
            phase = .finishing
            return .finish
        }
        phase = .open
        return .stored(offset: info.offset)
    }

    /// The accepted PATCH's bytes were thrown away (a checksum mismatch, a body cut before it
    /// could be checked, a failed write other than a full disk): the offset stays where it was.
    mutating func patchDiscarded() {
        precondition(phase == .patching, "patchDiscarded without an accepted PATCH")
        phase = .open
    }

    /// The file was moved into the upload directory and recorded.
    ///
    /// - Parameter file: What was stored.
    mutating func finished(_ file: UploadedFile) {
        info.file = file
        phase = .finished
    }

    /// Moving the file failed; every byte is still staged, and a PATCH of no bytes at the end
    /// tries again.
    mutating func finishFailed() {
        phase = .open
    }

    /// A DELETE arrived.
    ///
    /// - Returns: Remove, or refuse while a PATCH is in flight.
    mutating func terminateRequested() -> TerminateAction {
        switch phase {
        case .patching, .finishing:
            return .refuse(.uploadBusy(id: info.id))
        case .open, .finished, .expired:
            return .remove
        }
    }

    /// The periodic sweep looks at the upload.
    ///
    /// - Parameter now: The current time.
    /// - Returns: What to do with it; nothing while a request is changing it.
    mutating func sweep(now: Date) -> SweepAction {
        guard now >= info.expiresAt else { return .keep }
        switch phase {
        case .open:
            phase = .expired
            return .expire
        case .finished:
            return .forget
        case .patching, .finishing, .expired:
            return .keep
        }
    }

    private static func expiry(_ now: Date, _ after: Duration) -> Date {
        let (seconds, attoseconds) = after.components
        return now.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
}
