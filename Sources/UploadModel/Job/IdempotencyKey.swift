import Multipart

/// The `Idempotency-Key` a job's requests carry (`draft-ietf-httpapi-idempotency-key-header`):
/// one key per job, the same on every attempt and after a restart, so a server that honours keys
/// stores a repeated request once and answers it with its first answer.
///
/// A key is the journal's identity (a random UUID it keeps, ``UploadJournal/idempotencyKeyPrefix()``) and the
/// job's ID, which the journal never gives twice: stable for as long as the journal lives,
/// unique across journals. Without a journal the prefix is a UUID drawn for the run.
///
/// A server says it honours keys by naming the key back in its answer (``isEchoed(in:)``;
/// `ferry serve` does). Ferry then re-sends a job whose answer was lost after its whole body
/// went out, instead of leaving it "may have arrived" (`UploadQueueStateMachine+IdempotencyKeys`).
public struct IdempotencyKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's text, without the quotes of the header's structured-field string.
    public let text: String

    /// The key of a job.
    ///
    /// - Parameters:
    ///   - prefix: The journal's identity, or the run's.
    ///   - job: The job's ID.
    public init(prefix: String, job: UploadJobID) {
        text = "\(prefix)-\(job.rawValue)"
    }

    public var description: String { text }

    /// The header field carrying the key.
    public var header: HeaderField {
        HeaderField(name: IdempotencyKeyHeader.name, value: IdempotencyKeyHeader.value(of: text))
    }

    /// Whether an answer names this key back: its server honours keys.
    ///
    /// - Parameter headers: The answer's headers.
    /// - Returns: `true` when an `Idempotency-Key` header of the answer holds the key.
    public func isEchoed(in headers: [HeaderField]) -> Bool {
        headers.contains { HTTPToken.namesEqual($0.name, IdempotencyKeyHeader.name) && IdempotencyKeyHeader.key(inValue: $0.value) == text }
    }
}
