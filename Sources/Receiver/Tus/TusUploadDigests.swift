import Crypto
import FoundationEssentials
import Multipart
import Synchronization

/// The SHA-256 of each tus upload's bytes so far, kept while its PATCHes arrive in order in
/// this process, so a finished upload's digest (logged and listed like a multipart file's)
/// needs no second read of the whole file.
///
/// A digest covers the bytes from 0 to its offset; a PATCH at another offset (after a restart
/// of the server, whose digests are not kept) finds none, and the finished file is read again.
/// Shared by all requests of one server; the table lives in a `Mutex`, so it is `Sendable`.
final class TusUploadDigests: Sendable {
    /// `@unchecked Sendable`: swift-crypto's `SHA256` is not marked `Sendable` (copy-on-write
    /// state); the table's `Mutex` guards every one kept, and one given out is a copy that only
    /// the PATCH holding the upload (one at a time) goes on with.
    private struct Running: @unchecked Sendable {
        var offset: Int64
        var hasher: SHA256
    }

    private let running = Mutex<[String: Running]>([:])

    /// The digest to go on with for a PATCH at `offset`.
    ///
    /// - Parameters:
    ///   - id: The upload's ID.
    ///   - offset: Where the PATCH's bytes go.
    /// - Returns: The digest of bytes 0..<offset (a new one at 0), or nil when none covers them.
    func hasher(for id: String, at offset: Int64) -> SHA256? {
        running.withLock { running in
            if let held = running[id], held.offset == offset { return held.hasher }
            return offset == 0 ? SHA256() : nil
        }
    }

    /// Keeps the digest of a PATCH whose bytes were stored.
    ///
    /// - Parameters:
    ///   - hasher: The digest of bytes 0..<offset.
    ///   - id: The upload's ID.
    ///   - offset: The upload's offset after the PATCH.
    func store(_ hasher: SHA256, for id: String, at offset: Int64) {
        running.withLock { $0[id] = Running(offset: offset, hasher: hasher) }
    }

    /// Takes a finished upload's digest, if one covers all its bytes.
    ///
    /// - Parameters:
    ///   - id: The upload's ID.
    ///   - length: The upload's length.
    /// - Returns: The lowercase hex SHA-256, or nil (the file is then read again).
    func finished(_ id: String, length: Int64) -> String? {
        guard let held = running.withLock({ $0.removeValue(forKey: id) }), held.offset == length else { return nil }
        return held.hasher.finalize().lowercaseHex
    }

    /// Forgets an upload's digest (the upload was removed).
    ///
    /// - Parameter id: The upload's ID.
    func remove(_ id: String) {
        _ = running.withLock { $0.removeValue(forKey: id) }
    }
}
