import Crypto
import FoundationEssentials
import Multipart
import Uploading

/// The `Upload-Checksum` value of a chunk: `ALGORITHM base64(digest)` of a file's byte range,
/// read in constant memory (256 KiB at a time), with the file's stamp checked as the body does.
enum TusChunkChecksum {
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
        let reader = RequestBody(segments: [.file(file, range: range)], contentType: TusRequest.bodyContentType).makeReader()
        defer { reader.close() }
        var sha256 = SHA256()
        var sha1 = Insecure.SHA1()
        do {
            while let chunk = try reader.nextChunk() {
                switch algorithm {
                case .sha256: sha256.update(data: chunk)
                case .sha1: sha1.update(data: chunk)
                }
            }
        } catch {
            throw .multipartFailed(error)
        }
        let digest = switch algorithm {
        case .sha256: Data(sha256.finalize())
        case .sha1: Data(sha1.finalize())
        }
        return "\(algorithm.rawValue) \(digest.base64EncodedString())"
    }
}
