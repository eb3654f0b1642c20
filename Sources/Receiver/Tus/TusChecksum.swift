import Crypto
import FoundationEssentials

/// An `Upload-Checksum` header of tus's checksum extension: an algorithm and the Base64 digest
/// of one PATCH's bytes (`sha1 Kq5sNclPz7QV2+lfQIuc6R7oRu0=`).
struct TusChecksum: Sendable, Hashable {
    /// The algorithms this receiver checks, as `Tus-Checksum-Algorithm` lists them.
    enum Algorithm: String, Sendable, CaseIterable {
        case sha1
        case sha256

        /// The digest's length in bytes.
        var digestByteCount: Int {
            switch self {
            case .sha1: return Insecure.SHA1.byteCount
            case .sha256: return SHA256.byteCount
            }
        }
    }

    /// The value of `Tus-Checksum-Algorithm`.
    static let supportedAlgorithms = Algorithm.allCases.map(\.rawValue).joined(separator: ",")

    /// The algorithm.
    let algorithm: Algorithm
    /// The expected digest.
    let digest: [UInt8]

    /// Parses an `Upload-Checksum` header value.
    ///
    /// - Parameter header: `ALGORITHM BASE64`; the algorithm's name is not case-sensitive.
    /// - Throws: ``ReceiverError/tusRefused(reason:)`` with `unsupportedChecksumAlgorithm` (400)
    ///   for an algorithm other than sha1 or sha256, `invalidChecksum` (400) for anything else
    ///   malformed (no space, not Base64, a digest of the wrong length).
    init(parsing header: String) throws(ReceiverError) {
        let parts = header.trimmingWhitespace().split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            throw .tusRefused(reason: .invalidChecksum(detail: "expected 'ALGORITHM BASE64', got '\(header)'"))
        }
        guard let algorithm = Algorithm(rawValue: parts[0].lowercased()) else {
            throw .tusRefused(reason: .unsupportedChecksumAlgorithm(String(parts[0])))
        }
        guard let digest = Data(base64Encoded: String(parts[1])), digest.count == algorithm.digestByteCount else {
            throw .tusRefused(
                reason: .invalidChecksum(detail: "'\(parts[1])' is not the Base64 of a \(algorithm.digestByteCount)-byte \(algorithm.rawValue) digest"))
        }
        self.algorithm = algorithm
        self.digest = [UInt8](digest)
    }
}
