import Dispatch
import Multipart
import Synchronization
import Uploading

/// The `Upload-Checksum` of a tus upload's chunks, hashed one chunk ahead: while chunk N is on
/// the wire, chunk N+1 (the range after it, which the server's answer most likely confirms) is
/// hashed, so a chunk's hashing and the one before it's sending overlap instead of taking turns.
///
/// One range at a time is held (ahead or asked for): a guess the server's answer did not confirm
/// (a cut PATCH, a refusal) is dropped, and the range really asked for is hashed then. Memory
/// stays constant: `TusChunkChecksum` reads the range 256 KiB at a time.
final class TusChecksumAhead: Sendable {
    private struct Entry {
        var algorithm: TusChecksumAlgorithm
        var range: Range<Int64>
        /// The header value, once hashed.
        var result: Result<String, UploadError>?
        /// Who asked for it before it was hashed.
        var waiting: (@Sendable (Result<String, UploadError>) -> Void)?
    }

    private let file: FileSnapshot
    private let entry = Mutex<Entry?>(nil)
    /// Where chunks are hashed (never an event loop).
    private static let hashing = DispatchQueue(label: "ferry.transport.tus-checksum", attributes: .concurrent)

    /// Creates the hasher of one attempt's chunks.
    ///
    /// - Parameter file: The file the ranges are of.
    init(file: FileSnapshot) {
        self.file = file
    }

    /// Starts hashing a range that will probably be asked for next, unless it is already held.
    ///
    /// - Parameters:
    ///   - algorithm: The algorithm.
    ///   - range: The chunk's bytes.
    func prepare(_ algorithm: TusChecksumAlgorithm, range: Range<Int64>) {
        let start = entry.withLock { entry -> Bool in
            if let held = entry, held.algorithm == algorithm, held.range == range { return false }
            entry = Entry(algorithm: algorithm, range: range)
            return true
        }
        guard start else { return }
        Self.hashing.async { [file] in
            let result = Result { () throws(UploadError) in try TusChunkChecksum.header(algorithm, of: file, range: range) }
            self.deliver(result, algorithm: algorithm, range: range)
        }
    }

    /// Gives a range's header value: at once when it was hashed ahead, else once it is.
    ///
    /// - Parameters:
    ///   - algorithm: The algorithm.
    ///   - range: The chunk's bytes.
    ///   - completion: Receives the header value or the read failure, once, on any thread.
    func header(_ algorithm: TusChecksumAlgorithm, range: Range<Int64>,
                completion: @escaping @Sendable (Result<String, UploadError>) -> Void) {
        prepare(algorithm, range: range)
        let ready = entry.withLock { entry -> Result<String, UploadError>? in
            guard let held = entry, held.algorithm == algorithm, held.range == range else { return nil }
            if let result = held.result {
                entry = nil
                return result
            }
            entry?.waiting = completion
            return nil
        }
        if let ready { completion(ready) }
    }

    /// A hash finished: to whoever waits for it, else held; dropped when another range replaced it.
    private func deliver(_ result: Result<String, UploadError>, algorithm: TusChecksumAlgorithm, range: Range<Int64>) {
        let waiting = entry.withLock { entry -> (@Sendable (Result<String, UploadError>) -> Void)? in
            guard let held = entry, held.algorithm == algorithm, held.range == range, held.result == nil else { return nil }
            if let waiting = held.waiting {
                entry = nil
                return waiting
            }
            entry?.result = result
            return nil
        }
        waiting?(result)
    }
}
