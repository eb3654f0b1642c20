import Crypto
import NIOCore

/// Hashes one PATCH's bytes with the algorithm its ``TusChecksum`` names, to check them against it.
///
/// Not thread-safe: owned by the request's task.
struct TusChecksumHasher {
    private enum Function {
        case sha1(Insecure.SHA1)
        case sha256(SHA256)
    }

    private var function: Function
    /// The digest the bytes must have.
    let expected: TusChecksum

    /// Starts hashing for `checksum`.
    ///
    /// - Parameter checksum: The header the bytes are checked against.
    init(checking checksum: TusChecksum) {
        expected = checksum
        switch checksum.algorithm {
        case .sha1: function = .sha1(Insecure.SHA1())
        case .sha256: function = .sha256(SHA256())
        }
    }

    /// Adds bytes.
    ///
    /// - Parameter buffer: The next bytes of the PATCH body (read, not consumed).
    mutating func update(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { bytes in
            switch function {
            case .sha1(var hasher):
                hasher.update(bufferPointer: bytes)
                function = .sha1(hasher)
            case .sha256(var hasher):
                hasher.update(bufferPointer: bytes)
                function = .sha256(hasher)
            }
        }
    }

    /// The SHA-256 of the bytes added, when the algorithm is sha256.
    var sha256: SHA256? {
        guard case .sha256(let hasher) = function else { return nil }
        return hasher
    }

    /// Whether the bytes added have the expected digest.
    ///
    /// - Returns: `true` on a match.
    func matches() -> Bool {
        switch function {
        case .sha1(let hasher): return Array(hasher.finalize()) == expected.digest
        case .sha256(let hasher): return Array(hasher.finalize()) == expected.digest
        }
    }
}
