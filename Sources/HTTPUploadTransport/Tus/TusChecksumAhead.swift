import Dispatch
import FileSystem
import Multipart
import Synchronization
import UploadModel

/// The `Upload-Checksum` of a tus upload's chunks, hashed one chunk ahead: while chunk N is on
/// the wire, chunk N+1 (the range after it, which the server's answer most likely confirms) is
/// hashed, so a chunk's hashing and the one before it's sending overlap instead of taking turns.
///
/// The next chunk's size is not known until chunk N's answer sizes it, so it is hashed at several
/// candidate sizes in one pass (the size now and the size predicted, `TusChunkSizing`): the value
/// at each candidate end is taken on the way. One start offset at a time is held (ahead or asked
/// for): a range no candidate covers (a shrink, a cut PATCH, a refusal) drops the pass, and the
/// range really asked for is hashed then. Memory stays constant: `TusChunkChecksum` reads 256 KiB
/// at a time.
final class TusChecksumAhead: Sendable {
    private struct Entry {
        /// Tells this pass from any later one.
        var pass: UInt64
        var algorithm: TusChecksumAlgorithm
        var start: Int64
        /// Where the ranges hashed end.
        var ends: Set<Int64>
        /// The header values (or the read failure) of the ends reached so far.
        var results: [Int64: Result<String, UploadError>] = [:]
        /// Who asked for which end before it was reached.
        var waiting: (end: Int64, completion: @Sendable (Result<String, UploadError>) -> Void)?

        /// Whether the pass gives `range`'s value.
        func covers(_ algorithm: TusChecksumAlgorithm, _ range: Range<Int64>) -> Bool {
            self.algorithm == algorithm && start == range.lowerBound && ends.contains(range.upperBound)
        }
    }

    private struct State {
        var entry: Entry?
        var passes: UInt64 = 0
    }

    private let file: FileSnapshot
    private let state = Mutex(State())
    /// Where chunks are hashed (never an event loop).
    private static let hashing = DispatchQueue(label: "ferry.transport.tus-checksum", attributes: .concurrent)

    /// Creates the hasher of one attempt's chunks.
    ///
    /// - Parameter file: The file the ranges are of.
    init(file: FileSnapshot) {
        self.file = file
    }

    /// Starts hashing the ranges that will probably be asked for next — from `start` to each of
    /// `ends`, in one pass — unless a pass held already gives them all.
    ///
    /// - Parameters:
    ///   - algorithm: The algorithm.
    ///   - start: Where the next chunk starts.
    ///   - ends: Where it may end (each after `start`).
    func prepare(_ algorithm: TusChecksumAlgorithm, from start: Int64, to ends: [Int64]) {
        let pass = state.withLock { state -> UInt64? in
            if let held = state.entry, ends.allSatisfy({ held.covers(algorithm, start..<$0) }) { return nil }
            state.passes += 1
            state.entry = Entry(pass: state.passes, algorithm: algorithm, start: start, ends: Set(ends))
            return state.passes
        }
        guard let pass else { return }
        Self.hashing.async { [file] in
            do throws(UploadError) {
                try TusChunkChecksum.headers(algorithm, of: file, from: start, to: ends, wanted: { self.isHeld(pass) }) { end, value in
                    self.deliver(.success(value), at: [end], pass: pass)
                }
            } catch {
                self.deliver(.failure(error), at: ends, pass: pass)
            }
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
        prepare(algorithm, from: range.lowerBound, to: [range.upperBound])
        let ready = state.withLock { state -> Result<String, UploadError>? in
            guard let held = state.entry, held.covers(algorithm, range) else { return nil }
            if let result = held.results[range.upperBound] {
                state.entry = nil
                return result
            }
            state.entry?.waiting = (range.upperBound, completion)
            return nil
        }
        if let ready { completion(ready) }
    }

    /// Whether a pass is still held (else it stops: its values would be dropped).
    private func isHeld(_ pass: UInt64) -> Bool {
        state.withLock { $0.entry?.pass == pass }
    }

    /// A pass reached ends (or failed before them): to whoever waits for one of them, else held;
    /// dropped when another pass replaced it.
    private func deliver(_ result: Result<String, UploadError>, at ends: [Int64], pass: UInt64) {
        let waiting = state.withLock { state -> (@Sendable (Result<String, UploadError>) -> Void)? in
            guard var held = state.entry, held.pass == pass else { return nil }
            for end in ends where held.results[end] == nil { held.results[end] = result }
            if let waiting = held.waiting, ends.contains(waiting.end) {
                state.entry = nil
                return waiting.completion
            }
            state.entry = held
            return nil
        }
        waiting?(result)
    }
}
