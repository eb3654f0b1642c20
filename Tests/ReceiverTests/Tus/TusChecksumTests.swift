import Foundation
import NIOCore
import Testing

@testable import Receiver

@Suite("tus Upload-Checksum")
struct TusChecksumTests {
    private static let body = Array("hello tus".utf8)
    // Computed by Python's hashlib, not by the code under test.
    private static let sha1 = "2EwWm+DShcPcDrZhE8ADjI0E7+0="
    private static let sha256 = "cMUYLTbsAPOsXyj6jbn44tIzN8nY9k4JZy06nqWzHxQ="

    @Test("sha1 and sha256 parse (algorithm names in any case) and check the bytes given in pieces")
    func matches() throws {
        for header in ["sha1 \(Self.sha1)", "SHA256 \(Self.sha256)"] {
            let checksum = try TusChecksum(parsing: header)
            var hasher = TusChecksumHasher(checking: checksum)
            hasher.update(ByteBuffer(bytes: Self.body[..<4]))
            hasher.update(ByteBuffer(bytes: Self.body[4...]))
            #expect(hasher.matches(), "\(header)")
            var wrong = TusChecksumHasher(checking: checksum)
            wrong.update(ByteBuffer(bytes: Array("hello TUS".utf8)))
            #expect(!wrong.matches())
        }
        #expect(TusChecksum.supportedAlgorithms == "sha1,sha256")
    }

    @Test("an unsupported algorithm and malformed values are 400s with their own reasons")
    func refused() {
        func reason(_ header: String) -> ReceiverError.TusRefusalReason? {
            do {
                _ = try TusChecksum(parsing: header)
                return nil
            } catch {
                guard case .tusRefused(let reason) = error else { return nil }
                #expect(reason.httpStatus == 400)
                return reason
            }
        }
        #expect(reason("md5 \(Self.sha1)") == .unsupportedChecksumAlgorithm("md5"))
        for bad in ["sha1", "sha1 !!!", "sha1 \(Self.sha256)", "", "sha1 a b"] {
            guard case .invalidChecksum = reason(bad) else {
                Issue.record("'\(bad)' should be malformed")
                continue
            }
        }
    }
}
