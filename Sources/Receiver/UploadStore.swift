import Synchronization

/// The uploads a server has stored, request by request, for `GET /uploads`.
///
/// Shared by all requests of one server; its list lives in a `Mutex`, so it is `Sendable`.
final class UploadStore: Sendable {
    private let records = Mutex<[UploadRecord]>([])

    /// Appends the record of one stored upload.
    ///
    /// - Parameter record: What the request delivered.
    func append(_ record: UploadRecord) {
        records.withLock { $0.append(record) }
    }

    /// Every stored upload, oldest first.
    var all: [UploadRecord] {
        records.withLock { $0 }
    }
}
