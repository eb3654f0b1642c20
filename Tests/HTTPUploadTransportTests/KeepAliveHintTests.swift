import Multipart
import NIOCore
import Testing
@testable import HTTPUploadTransport
import UploadModel

/// The server's `Keep-Alive: timeout=N` bounds how long Ferry keeps a connection unused.
@Suite("Keep-Alive timeout hint")
struct KeepAliveHintTests {
    private func response(_ keepAlive: String?) -> UploadResponse {
        UploadResponse(status: 200, headers: keepAlive.map { [HeaderField(name: "Keep-Alive", value: $0)] } ?? [], body: [])
    }

    @Test("no hint: Ferry's own limit")
    func noHint() {
        #expect(KeepAliveHint.idleLimit(after: response(nil), default: .seconds(60)) == .seconds(60))
        #expect(KeepAliveHint.idleLimit(after: response("max=100"), default: .seconds(60)) == .seconds(60))
        #expect(KeepAliveHint.idleLimit(after: response("timeout=soon"), default: .seconds(60)) == .seconds(60))
    }

    @Test("Node's timeout=5: closed after 4 s; a longer hint keeps Ferry's shorter limit")
    func hinted() {
        #expect(KeepAliveHint.idleLimit(after: response("timeout=5"), default: .seconds(60)) == .seconds(4))
        #expect(KeepAliveHint.idleLimit(after: response(" max=1000 , Timeout = \"15\""), default: .seconds(60)) == .seconds(14))
        #expect(KeepAliveHint.idleLimit(after: response("timeout=300"), default: .seconds(60)) == .seconds(60))
    }

    @Test("a hint of a second or less: the connection is not kept at all")
    func tooShort() {
        #expect(KeepAliveHint.idleLimit(after: response("timeout=1"), default: .seconds(60)) == nil)
        #expect(KeepAliveHint.idleLimit(after: response("timeout=0"), default: .seconds(60)) == nil)
    }
}
