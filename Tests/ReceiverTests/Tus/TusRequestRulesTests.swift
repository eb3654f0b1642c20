import Foundation
import Testing

@testable import Receiver

@Suite("tus request rules")
struct TusRequestRulesTests {
    private func reason(_ body: () throws -> Void) -> ReceiverError.TusRefusalReason? {
        do {
            try body()
            return nil
        } catch {
            guard case .tusRefused(let reason) = error as? ReceiverError else { return nil }
            return reason
        }
    }

    @Test("Tus-Resumable must be 1.0.0; anything else is 412")
    func version() {
        #expect(reason { try TusRequestRules.checkVersion("1.0.0") } == nil)
        #expect(reason { try TusRequestRules.checkVersion(nil) } == .unsupportedVersion(nil))
        #expect(reason { try TusRequestRules.checkVersion("0.2.2") }?.httpStatus == 412)
    }

    @Test("Upload-Length: digits within --max-body; deferred, signed, spaced or too large refused")
    func uploadLength() throws {
        #expect(try TusRequestRules.uploadLength("100", deferLength: nil, maximum: 100) == 100)
        #expect(try TusRequestRules.uploadLength("0", deferLength: nil, maximum: 100) == 0)
        #expect(reason { _ = try TusRequestRules.uploadLength("101", deferLength: nil, maximum: 100) } == .uploadTooLarge(length: 101, limit: 100))
        #expect(reason { _ = try TusRequestRules.uploadLength("101", deferLength: nil, maximum: 100) }?.httpStatus == 413)
        #expect(reason { _ = try TusRequestRules.uploadLength(nil, deferLength: "1", maximum: 100) } == .deferredLengthUnsupported)
        for bad in [nil, "", "-1", "+1", "1 2", "0x10", "99999999999999999999"] as [String?] {
            #expect(reason { _ = try TusRequestRules.uploadLength(bad, deferLength: nil, maximum: .max) } == .invalidUploadLength(bad))
        }
    }

    @Test("Upload-Offset and Content-Type of a PATCH")
    func offsetAndType() throws {
        #expect(try TusRequestRules.offset("42") == 42)
        #expect(reason { _ = try TusRequestRules.offset("-1") } == .invalidOffset("-1"))
        #expect(reason { _ = try TusRequestRules.offset(nil) }?.httpStatus == 400)
        #expect(reason { try TusRequestRules.checkOffsetStream("Application/Offset+Octet-Stream; x=1") } == nil)
        #expect(reason { try TusRequestRules.checkOffsetStream("application/octet-stream") }?.httpStatus == 415)
        #expect(reason { try TusRequestRules.checkOffsetStream(nil) } == .unsupportedContentType(nil))
    }

    @Test("Upload-Expires is an IMF-fixdate in GMT")
    func httpDate() {
        #expect(TusRequestRules.httpDate(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(TusRequestRules.httpDate(Date(timeIntervalSince1970: 0.9)) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test("IDs are 32 lowercase hex digits; nothing else is one, so no path can name another file")
    func ids() {
        var generator = SplitMix64(seed: 1)
        let id = TusRequestRules.newID(using: &generator)
        #expect(TusRequestRules.isValidID(id))
        #expect(TusRequestRules.newID(using: &generator) != id)
        for bad in ["", "../../etc/passwd", String(repeating: "A", count: 32), String(repeating: "a", count: 31), id + "0"] {
            #expect(!TusRequestRules.isValidID(bad), "\(bad)")
        }
    }
}
