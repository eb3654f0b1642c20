@testable import HTTPUploadTransport
import Multipart
import NIOCore
import NIOEmbedded
import NIOHTTP1
import UploadModel
import FuzzSupport

/// The client's side of a response: arbitrary server bytes through the pipeline `ferry send`
/// uses (`addHTTPClientHandlers(leftOverBytesStrategy: .dropBytes)` on an `EmbeddedChannel`,
/// after a POST head went out), each decoded part fed to `ExchangeStateMachine` as
/// `ExchangeHandler` does, decoder errors mapped by `TransferErrorMapping`, the server's close
/// as the end; then `KeepAliveHint` on the response and `ProxyConnectAnswer` on the same bytes.
///
/// The first byte picks the chunk size (1 to 64 bytes, or whole) and whether the request body
/// was still going out when the answer came. Checked beyond "no crash":
/// - the exchange ends exactly once, and is over once the connection closed;
/// - a connection is reused only after a whole request and a response that ended as framed;
/// - a reply that is not HTTP is quoted as printable ASCII only (at most `shownReplyBytes`);
/// - `KeepAliveHint` never gives a limit above the default or at or below zero;
/// - `ProxyConnectAnswer`: a parsed head lies within the bytes, its status is 100...599, its
///   reason phrase printable ASCII of at most 60 characters, and more bytes after a complete
///   head do not change it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard count > 0, let start else { return 0 }
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let chunk = input[0] & 0x7F < 96 ? Int(input[0] % 64) + 1 : Int.max
    let bodyStillSending = input[0] & 0x80 != 0
    let reply = Array(input[1...])
    exchange(reply, chunk: chunk, bodyStillSending: bodyStillSending)
    proxyAnswer(reply)
    return 0
}

private func exchange(_ reply: [UInt8], chunk: Int, bodyStillSending: Bool) {
    let channel = EmbeddedChannel()
    try! channel.pipeline.syncOperations.addHTTPClientHandlers(leftOverBytesStrategy: .dropBytes)
    var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/upload")
    head.headers.add(name: "Host", value: "127.0.0.1")
    head.headers.add(name: "Content-Length", value: "3")
    try! channel.writeOutbound(HTTPClientRequestPart.head(head))
    var machine = ExchangeStateMachine()
    if !bodyStillSending {
        try! channel.writeOutbound(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(string: "abc"))))
        machine.bodyPartWritten(3)
        try! channel.writeOutbound(HTTPClientRequestPart.end(nil))
        require(machine.bodyEnded() == .none, "bodyEnded acted")
    }
    var finishes: [ExchangeStateMachine.Action] = []
    var headReceived = false
    var replyBeginning: [UInt8] = []
    func act(_ action: ExchangeStateMachine.Action) {
        if case .finish(let outcome, let fate) = action {
            finishes.append(action)
            if fate == .reuse {
                require(!bodyStillSending, "reused after an unfinished request")
                guard case .response = outcome else { fatalError("reused after a failure") }
            }
            if case .failed(.transferFailed(.replyNotHTTP(_, let beginning)), _) = outcome {
                require(beginning.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) || $0 == "…" },
                             "unprintable quote \(beginning.debugDescription)")
                require(beginning.count <= TransferErrorMapping.shownReplyBytes * 4 + 1, "quote too long")
            }
            if case .response(let response) = outcome {
                if let limit = KeepAliveHint.idleLimit(after: response, default: .seconds(30)) {
                    require(limit > .zero && limit <= .seconds(30), "keep-alive limit \(limit)")
                }
            }
        }
    }
    func drain() {
        while let part = try? channel.readInbound(as: HTTPClientResponsePart.self) {
            switch part {
            case .head(let head):
                headReceived = true
                machine.responseBytesArrived()
                let headers = head.headers.map { HeaderField(name: $0.name, value: $0.value) }
                act(machine.responseHeadReceived(status: Int(head.status.code), headers: headers, keepAlive: head.isKeepAlive))
            case .body(let buffer):
                act(machine.responseBodyReceived(buffer.readableBytesView))
            case .end:
                act(machine.responseEnded())
            }
        }
    }
    var offset = 0
    while offset < reply.count, !machine.isFinished {
        let end = min(reply.count, offset + min(chunk, reply.count))
        let piece = reply[offset..<end]
        offset = end
        machine.responseBytesArrived()
        let room = TransferErrorMapping.shownReplyBytes + 1 - replyBeginning.count
        if room > 0 { replyBeginning += piece.prefix(room) }
        do {
            try channel.writeInbound(ByteBuffer(bytes: piece))
            drain()
        } catch {
            drain()
            let reason = TransferErrorMapping.reason(for: error, host: "127.0.0.1", replyBeginning: replyBeginning,
                                                     responseHeadReceived: headReceived, peerCertificate: nil, now: 0)
            _ = TransferErrorMapping.message(for: error)
            act(machine.failed(reason, connectionDropped: TransferErrorMapping.isConnectionDrop(error)))
        }
    }
    // The server closes: a response framed by the close ends now.
    do {
        _ = try channel.finish(acceptAlreadyClosed: true)
    } catch {
        let reason = TransferErrorMapping.reason(for: error, host: "127.0.0.1", replyBeginning: replyBeginning,
                                                 responseHeadReceived: headReceived, peerCertificate: nil, now: 0)
        act(machine.failed(reason, connectionDropped: TransferErrorMapping.isConnectionDrop(error)))
    }
    drain()
    act(machine.connectionClosed())
    require(machine.isFinished, "the exchange is not over after the connection closed")
    require(finishes.count == 1, "the exchange ended \(finishes.count) times: \(finishes)")
}

private func proxyAnswer(_ bytes: [UInt8]) {
    guard let answer = try? ProxyConnectAnswer.parse(bytes) else { return }
    require(answer.headLength > 0 && answer.headLength <= bytes.count, "head length \(answer.headLength) of \(bytes.count)")
    require((100...599).contains(answer.status), "status \(answer.status)")
    require(answer.reasonPhrase.count <= 60 && answer.reasonPhrase.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) },
                 "reason \(answer.reasonPhrase.debugDescription)")
    let longer = try? ProxyConnectAnswer.parse(bytes + Array("HTTP/1.1 500 X\r\n\r\n".utf8))
    require(longer == answer, "more bytes changed the answer: \(answer) vs \(String(describing: longer))")
}

// SwiftPM renames this executable's `main` to `FuzzResponseHead_main`: libFuzzer's driver runs from here.
@_cdecl("FuzzResponseHead_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { fuzz($0, $1) }
}
