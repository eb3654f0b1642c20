import Crypto
import FileSystem
import FoundationEssentials
import Multipart
import UploadModel
import UploadProtocols

/// The `Upload-Checksum` value of a chunk: `ALGORITHM base64(digest)` of a file's byte range,
/// read in constant memory (256 KiB at a time), with the file's stamp checked as the body does.
enum TusChunkChecksum {
    /// A running hash of either algorithm; a value type, so taking a value does not end it.
    private enum Hasher {
        case sha256(SHA256)
        case sha1(Insecure.SHA1)

        init(_ algorithm: TusChecksumAlgorithm) {
            switch algorithm {
            case .sha256: self = .sha256(SHA256())
            case .sha1: self = .sha1(Insecure.SHA1())
            }
        }

        mutating func update(_ bytes: [UInt8]) {
            switch self {
            case var .sha256(hasher):
                hasher.update(data: bytes)
                self = .sha256(hasher)
            case var .sha1(hasher):
                hasher.update(data: bytes)
                self = .sha1(hasher)
            }
        }

        /// The digest of the bytes so far; the hash can go on.
        var digest: Data {
            switch self {
            case let .sha256(hasher): Data(hasher.finalize())
            case let .sha1(hasher): Data(hasher.finalize())
            }
        }
    }

    /// Hashes a file's range.
    ///
    /// **Must not** be called on an event loop or the root queue: it reads the range from disk.
    ///
    /// - Parameters:
    ///   - algorithm: The algorithm.
    ///   - file: The file.
    ///   - range: The chunk's bytes.
    /// - Returns: The header value.
    /// - Throws: `UploadError.multipartFailed` when the file cannot be read or changed.
    static func header(_ algorithm: TusChecksumAlgorithm, of file: FileSnapshot, range: Range<Int64>) throws(UploadError) -> String {
        var value = ""
        try headers(algorithm, of: file, from: range.lowerBound, to: [range.upperBound]) { _, header in value = header }
        return value
    }

    /// Hashes from `start` to the farthest of `ends` in one pass, giving the header value of
    /// `start..<end` at each end on the way, nearest first, as soon as it is reached.
    ///
    /// **Must not** be called on an event loop or the root queue: it reads the file from disk.
    ///
    /// - Parameters:
    ///   - algorithm: The algorithm.
    ///   - file: The file.
    ///   - start: Where every range starts.
    ///   - ends: Where the ranges end; each at least `start`.
    ///   - wanted: Asked after each read; false stops the pass (nothing more is given).
    ///   - reached: Receives each end and its range's header value.
    /// - Throws: `UploadError.multipartFailed` when the file cannot be read or changed (the ends
    ///   already given keep their values).
    static func headers(_ algorithm: TusChecksumAlgorithm, of file: FileSnapshot, from start: Int64, to ends: [Int64],
                        wanted: () -> Bool = { true }, reached: (Int64, String) -> Void) throws(UploadError) {
        precondition(ends.allSatisfy { $0 >= start }, "a range ends after it starts")
        var hasher = Hasher(algorithm)
        var hashed = start
        for end in Set(ends).sorted() {
            // A reader per stretch checks the file's stamp before and after it, so each value given
            // is of bytes that matched the snapshot.
            let reader = RequestBody(segments: [.file(file, range: hashed..<end)], contentType: TusRequest.bodyContentType).makeReader()
            defer { reader.close() }
            do {
                while let chunk = try reader.nextChunk() {
                    hasher.update(chunk)
                    guard wanted() else { return }
                }
            } catch {
                throw .multipartFailed(error)
            }
            hashed = end
            reached(end, "\(algorithm.rawValue) \(hasher.digest.base64EncodedString())")
        }
    }
}
