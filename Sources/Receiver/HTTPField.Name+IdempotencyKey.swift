import HTTPTypes
import Multipart

extension HTTPField.Name {
    /// `Idempotency-Key`: the key of an upload a client may send more than once.
    static let idempotencyKey = Self(IdempotencyKeyHeader.name)!
    /// `Idempotent-Replayed`: `true` on an answer replayed for a repeated key.
    static let idempotentReplayed = Self(IdempotencyKeyHeader.replayedName)!
}
