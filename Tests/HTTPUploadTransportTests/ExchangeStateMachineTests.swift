import Multipart
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

/// `ExchangeStateMachine` without a socket: each order in which a request's end, the response
/// and the connection's close can arrive.
@Suite("Exchange state machine")
struct ExchangeStateMachineTests {
    private typealias Machine = ExchangeStateMachine
    private let ok = [HeaderField(name: "Content-Length", value: "2")]

    private func response(_ status: Int, body: String = "") -> Machine.Outcome {
        .response(UploadResponse(status: status, headers: ok, body: Array(body.utf8)))
    }

    @Test("body sent, then the response: the response decides and the connection is reused")
    func ordinary() {
        var machine = Machine()
        machine.bodyPartWritten(10)
        #expect(machine.bodyEnded() == .none)
        machine.responseBytesArrived()
        #expect(machine.responseHeadReceived(status: 200, headers: ok, keepAlive: true) == .none)
        #expect(machine.responseBodyReceived(Array("ok".utf8)) == .none)
        #expect(machine.responseEnded() == .finish(response(200, body: "ok"), .reuse))
        #expect(machine.bytesSent == 10)
        #expect(machine.connectionClosed() == .none)
    }

    @Test("Connection: close, or a close right after the response: still the response, connection closed")
    func closeAfterAnswer() {
        var machine = Machine()
        _ = machine.bodyEnded()
        _ = machine.responseHeadReceived(status: 201, headers: ok, keepAlive: false)
        #expect(machine.responseEnded() == .finish(response(201), .close))
        #expect(machine.connectionClosed() == .none)
        #expect(machine.failed(.idleTimedOut, connectionDropped: false) == .none)
    }

    @Test("the whole response before the body's end was confirmed: the response decides, the connection closes")
    func responseBeforeBodyEnd() {
        var machine = Machine()
        machine.bodyPartWritten(100)
        #expect(machine.responseHeadReceived(status: 200, headers: ok, keepAlive: true) == .stopBody)
        #expect(machine.responseEnded() == .finish(response(200), .close))
        #expect(machine.bodyEnded() == .none)
        #expect(!machine.isSendingBody)
    }

    @Test("an early 413 stops the body; the write failing afterwards does not turn it into a lost connection")
    func earlyRejection() {
        var machine = Machine()
        machine.bodyPartWritten(65_536)
        #expect(machine.responseHeadReceived(status: 413, headers: ok, keepAlive: false) == .stopBody)
        #expect(!machine.isSendingBody)
        #expect(machine.bodyWriteFailed("the server reset the connection") == .none)
        #expect(machine.responseEnded() == .finish(response(413), .close))
    }

    @Test("the write fails before the early response was read: the response still decides")
    func writeFailsThenResponse() {
        var machine = Machine()
        #expect(machine.bodyWriteFailed("the server closed the connection") == .none)
        _ = machine.responseHeadReceived(status: 413, headers: ok, keepAlive: true)
        #expect(machine.responseEnded() == .finish(response(413), .close))
    }

    @Test("closed before any response byte: a failure marked beforeResponse, with what was going on")
    func closedBeforeResponse() {
        var sent = Machine()
        _ = sent.bodyEnded()
        #expect(sent.connectionClosed() == .finish(.failed(.transferFailed(reason: .connectionLost(
            message: "the server closed the connection before answering")), beforeResponse: true), .close))

        var sending = Machine()
        #expect(sending.connectionClosed() == .finish(.failed(.transferFailed(reason: .connectionLost(
            message: "the server closed the connection while the body was being sent")), beforeResponse: true), .close))

        var writeFailed = Machine()
        _ = writeFailed.bodyWriteFailed("sending the body failed: the server reset the connection")
        #expect(writeFailed.connectionClosed() == .finish(.failed(.transferFailed(reason: .connectionLost(
            message: "sending the body failed: the server reset the connection")), beforeResponse: true), .close))
    }

    @Test("the request is certainly incomplete until its end went out, and after it only when the server reset")
    func certainlyIncomplete() {
        var sending = Machine()
        sending.bodyPartWritten(10)
        #expect(sending.requestCertainlyIncomplete)

        var writeFailed = Machine()
        _ = writeFailed.bodyWriteFailed("sending the body failed: the server closed the connection")
        #expect(writeFailed.requestCertainlyIncomplete)

        var sent = Machine()
        _ = sent.bodyEnded()
        #expect(!sent.requestCertainlyIncomplete, "a server that read it all and closed may have stored it")
        _ = sent.connectionClosed()
        #expect(!sent.requestCertainlyIncomplete)

        var reset = Machine()
        _ = reset.bodyEnded()
        reset.connectionReset()
        #expect(reset.requestCertainlyIncomplete, "a reset: the server's application left bytes unread")

        var closedShort = Machine()
        _ = closedShort.bodyEnded()
        closedShort.peerClosedMissingBytes()
        _ = closedShort.connectionClosed()
        #expect(closedShort.requestCertainlyIncomplete, "the server's close acknowledged all it had: the rest never reached it")
    }

    @Test("a close after a response byte arrived is not beforeResponse (the server may have answered)")
    func closedAfterSomeBytes() {
        var machine = Machine()
        _ = machine.bodyEnded()
        machine.responseBytesArrived()
        guard case let .finish(.failed(_, beforeResponse), .close) = machine.connectionClosed() else {
            Issue.record("expected a failure")
            return
        }
        #expect(!beforeResponse)

        var midResponse = Machine()
        _ = midResponse.bodyEnded()
        midResponse.responseBytesArrived()
        _ = midResponse.responseHeadReceived(status: 200, headers: ok, keepAlive: true)
        #expect(midResponse.connectionClosed() == .finish(.failed(.transferFailed(reason: .connectionLost(
            message: "the server closed the connection in the middle of its response")), beforeResponse: false), .close))
    }

    @Test("a reset counts as a drop; timeouts, bad replies and cancels never ask for a re-send")
    func failureKinds() {
        var reset = Machine()
        _ = reset.bodyEnded()
        #expect(reset.failed(.connectionLost(message: "x"), connectionDropped: true)
            == .finish(.failed(.transferFailed(reason: .connectionLost(message: "x")), beforeResponse: true), .close))
        var idle = Machine()
        #expect(idle.failed(.idleTimedOut, connectionDropped: false)
            == .finish(.failed(.transferFailed(reason: .idleTimedOut), beforeResponse: false), .close))
    }

    @Test("100 Continue is skipped; the final response decides")
    func informational() {
        var machine = Machine()
        #expect(machine.responseHeadReceived(status: 100, headers: [], keepAlive: true) == .none)
        #expect(machine.responseEnded() == .none)
        #expect(machine.isSendingBody)
        _ = machine.bodyEnded()
        _ = machine.responseHeadReceived(status: 204, headers: ok, keepAlive: true)
        #expect(machine.responseEnded() == .finish(response(204), .reuse))
    }

    @Test("informational heads as NIO's decoder passes them on (no end of their own) are skipped; the final head decides")
    func informationalWithoutEnd() {
        var machine = Machine()
        #expect(machine.responseHeadReceived(status: 104, headers: [HeaderField(name: "Location", value: "/u/1")], keepAlive: true) == .none)
        #expect(machine.responseHeadReceived(status: 103, headers: [], keepAlive: true) == .none)
        #expect(machine.isSendingBody, "an informational answer does not stop the body")
        _ = machine.bodyEnded()
        _ = machine.responseHeadReceived(status: 201, headers: ok, keepAlive: true)
        #expect(machine.responseEnded() == .finish(response(201), .reuse))
    }

    @Test("a response body beyond the captured 64 KiB is not waited for: the status decides, the connection closes")
    func endlessResponse() {
        var machine = Machine()
        _ = machine.bodyEnded()
        _ = machine.responseHeadReceived(status: 200, headers: [], keepAlive: true)
        #expect(machine.responseBodyReceived([UInt8](repeating: 1, count: 60_000)) == .none)
        let action = machine.responseBodyReceived([UInt8](repeating: 2, count: 10_000))
        guard case let .finish(.response(captured), .close) = action else {
            Issue.record("expected the response, got \(action)")
            return
        }
        #expect(captured.status == 200)
        #expect(captured.body.count == UploadResponse.maximumCapturedBodyBytes)
        #expect(captured.isBodyTruncated)
        #expect(machine.responseEnded() == .none)
    }

    @Test("a body that cannot be read ends the exchange with that error")
    func bodyFailure() {
        var machine = Machine()
        let error = MultipartError.fileChanged(path: "/a", reason: .sizeChanged(expected: 1, actual: 2))
        #expect(machine.bodyFailed(error) == .finish(.failed(.multipartFailed(error), beforeResponse: false), .close))
    }
}
