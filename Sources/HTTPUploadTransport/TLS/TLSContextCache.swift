import FileSystem
import Multipart
import NIOSSL
import Synchronization
import UploadModel

/// The TLS client contexts made so far, one per `TLSIdentity`, each with the stamps (identity,
/// size, modification time) of the files it was read from.
///
/// A context is made by the caller's thread, outside any lock but the cache's own brief one, so
/// a connect never waits for another's file reads. Only successes are kept: a `--cacert` that
/// was missing or held no certificate is read again on the next connect, and a kept context
/// whose files changed since (a fixed, created, replaced or removed `--cacert`, `--capath`,
/// `--cert` or `--key`) is made again, so pressing `r` after fixing trust works in the same
/// process. What a connect costs for that is one `stat` per file named. A `--capath`
/// directory's stamp moves when an entry is added, removed or renamed, not when a file in it
/// is rewritten in place.
final class TLSContextCache: Sendable {
    private struct Entry: Sendable {
        let stamps: [FileSnapshot?]
        let context: NIOSSLContext
    }

    private let make: @Sendable (TLSIdentity) throws(UploadError) -> NIOSSLContext
    private let entries = Mutex<[TLSIdentity: Entry]>([:])

    /// Creates an empty cache.
    ///
    /// - Parameter make: Makes a context (reading its files); `TLSContextFactory.context(for:)`.
    init(make: @escaping @Sendable (TLSIdentity) throws(UploadError) -> NIOSSLContext) {
        self.make = make
    }

    /// The context for `identity`: the kept one while its files are unchanged, otherwise a new
    /// one (kept if it could be made). Callable from any thread.
    ///
    /// - Parameter identity: What the context is for.
    /// - Returns: The context.
    /// - Throws: What `make` throws; nothing is kept then.
    func context(for identity: TLSIdentity) throws(UploadError) -> NIOSSLContext {
        let stamps = identity.files.map { FileSnapshot(currentStateOf: $0) }
        if let entry = entries.withLock({ $0[identity] }), entry.stamps == stamps {
            return entry.context
        }
        let context = try make(identity)
        entries.withLock { $0[identity] = Entry(stamps: stamps, context: context) }
        return context
    }
}
