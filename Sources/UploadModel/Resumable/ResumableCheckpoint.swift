import FileSystem
import Multipart

/// Where a resumable request's upload (`--resumable`) stands, as the journal keeps it: the
/// upload's URL the server named (`104`), and what makes the body the same one again — its
/// multipart boundary and a fingerprint of it.
///
/// After a kill, the next run's attempt builds the body with this boundary and, when the
/// fingerprint matches (the form, the boundary and each file's stamp, as the job was queued), asks
/// the upload's URL for its offset and sends only the rest; a body that would differ, or an upload
/// the server no longer has, is sent whole as a new one, never spliced onto another body.
public struct ResumableCheckpoint: Sendable, Hashable, Codable {
    /// The upload's URL.
    public var uploadURL: String
    /// The body's multipart boundary.
    public var boundary: String
    /// ``fingerprint(of:)`` of the body.
    public var bodyFingerprint: String

    /// Creates a checkpoint.
    ///
    /// - Parameters:
    ///   - uploadURL: The upload's URL.
    ///   - boundary: The body's boundary.
    ///   - bodyFingerprint: The body's fingerprint.
    public init(uploadURL: String, boundary: String, bodyFingerprint: String) {
        self.uploadURL = uploadURL
        self.boundary = boundary
        self.bodyFingerprint = bodyFingerprint
    }

    /// The checkpoint of an upload at `uploadURL` of a multipart `body`.
    ///
    /// - Parameters:
    ///   - uploadURL: The upload's URL.
    ///   - body: The body; its content type names the boundary.
    /// - Returns: Nil when the body has no boundary (not multipart).
    public init?(uploadURL: String, body: RequestBody) {
        let parameters = body.contentType.split(separator: ";").map { $0.drop { $0 == " " } }
        guard let parameter = parameters.first(where: { $0.hasPrefix("boundary=") }) else { return nil }
        let boundary = parameter.dropFirst("boundary=".count)
        guard !boundary.isEmpty else { return nil }
        self.init(uploadURL: uploadURL, boundary: String(boundary), bodyFingerprint: Self.fingerprint(of: body))
    }

    /// A body's fingerprint: FNV-1a (64 bits) over its bytes in memory and, for each file range,
    /// the file's path, identity, size, modification time and the range — not a digest of the
    /// files' bytes, which their stamps stand for. It tells an accidental difference (another
    /// form, boundary or file, another Ferry's part headers), not a forged one.
    ///
    /// - Parameter body: The body.
    /// - Returns: The fingerprint, 16 hexadecimal digits.
    public static func fingerprint(of body: RequestBody) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
        }
        for segment in body.segments {
            switch segment {
            case let .bytes(bytes):
                add([0])
                add(bytes)
            case let .file(snapshot, range):
                let stamp = snapshot.stamp
                add([1])
                add(FileSystemName.bytes(of: snapshot.path))
                let identity = stamp.identity.map { "\($0.device):\($0.inode)" } ?? "-"
                add("\0\(identity):\(stamp.size):\(stamp.modificationTimeNanoseconds):\(range.lowerBound)-\(range.upperBound)".utf8)
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
