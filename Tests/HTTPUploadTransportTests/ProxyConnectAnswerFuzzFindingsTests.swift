import Testing
@testable import HTTPUploadTransport

/// Inputs `Fuzz/` (FuzzResponseHead) found: a head ended by LF LF (no CR) took its
/// status line up to the first CR anywhere, so the reason phrase ran into the next header lines
/// or into the tunnel's first bytes, and changed as more bytes arrived.
@Suite("Proxy CONNECT answers: fuzz findings")
struct ProxyConnectAnswerFuzzFindingsTests {
    @Test("the status line of an LF-only head ends at its LF")
    func lfOnlyHead() throws {
        let answer = try #require(try ProxyConnectAnswer.parse(Array("HTTP/1.1 200 OK\nServer: x\n\n".utf8)))
        #expect(answer.status == 200)
        #expect(answer.reasonPhrase == "OK")
    }

    @Test("the tunnel's bytes after a complete head change nothing (crash-420e288 of FuzzResponseHead)")
    func tunnelBytesAfterHead() throws {
        let head: [UInt8] = [0x48, 0x54, 0x54, 0x50, 0x2F, 0x31, 0x2E, 0x31, 0x20, 0x32, 0x30, 0x31, 0x20, 0x43, 0xAC,
                             0x20, 0xAF, 0xD0, 0xC8, 0x2E, 0x03, 0x48, 0x54, 0x54, 0x50, 0x2E, 0x11, 0xA0, 0x50, 0xD1, 0xFF,
                             0xB9, 0xCC, 0x64, 0x0A, 0x0A]
        let answer = try #require(try ProxyConnectAnswer.parse(head))
        let longer = try #require(try ProxyConnectAnswer.parse(head + Array("HTTP/1.1 500 X\r\n\r\n".utf8)))
        #expect(answer == longer)
        #expect(answer.status == 201)
        #expect(answer.headLength == head.count)
        #expect(!answer.reasonPhrase.contains("500"))
    }
}
