import Synchronization
import UploadModel

/// The last URL checked into an `UploadTarget`, kept for the next request: the jobs of a batch
/// share their URL, so a queue of small files checks it once rather than once per request.
final class UploadTargetMemo: Sendable {
    private let last = Mutex<(url: String, result: Result<UploadTarget, UploadTargetError>)?>(nil)

    /// Creates an empty memo.
    init() {}

    /// The checked target for `url`, from the memo when it is the last URL checked.
    ///
    /// - Parameter url: The URL.
    /// - Returns: The target.
    /// - Throws: What `UploadTarget.init(_:)` throws for it.
    func target(for url: String) throws(UploadTargetError) -> UploadTarget {
        let remembered = last.withLock { last in last.flatMap { $0.url == url ? $0.result : nil } }
        let result = remembered ?? Result { () throws(UploadTargetError) in try UploadTarget(url) }
        if remembered == nil { last.withLock { $0 = (url, result) } }
        return try result.get()
    }
}
