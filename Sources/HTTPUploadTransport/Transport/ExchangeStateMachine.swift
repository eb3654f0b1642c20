import Multipart
import UploadModel

/// One request and its response on one HTTP/1.1 connection, without I/O (NIO style): events
/// from the socket in, `Action`s out.
///
/// The rules it keeps:
/// - **A response is the outcome.** Once a final response has ended (as framed: length,
///   chunks, or the connection's close), it decides, whatever the connection does afterwards and
///   however much of the body was sent. A response that arrives while the body is still going
///   out stops the body (the server answered early, a 413 say) and closes the connection after.
/// - A connection is reused only when the body went out in full, the response ended as framed
///   and both sides kept the connection alive.
/// - A failure before any response byte arrived is marked `beforeResponse`: on a connection
///   that carried requests before, the caller may re-send once on a new one (the server closed
///   the idle connection as it was reused), because the server answered nothing — but only
///   when `requestCertainlyIncomplete` holds: the request's last byte never went out, or the
///   server reset the connection (its application did not read everything). A server that read
///   the whole request and closed without a word may have stored it: that is never re-sent.
/// - More than `UploadResponse.maximumCapturedBodyBytes` of response body is not waited for:
///   the status decides, the captured part is kept, the connection is closed.
struct ExchangeStateMachine: Sendable {
    /// What to do with the connection once the exchange ended.
    enum ConnectionFate: Sendable, Equatable {
        /// Return it to the pool for the next request.
        case reuse
        /// Close it.
        case close
    }

    /// How the exchange ended.
    enum Outcome: Sendable, Equatable {
        /// The server answered (any status).
        case response(UploadResponse)
        /// No complete response. `beforeResponse`: no response byte arrived and the connection
        /// closed or reset, so the server answered nothing.
        case failed(UploadError, beforeResponse: Bool)
    }

    /// What the driver must do.
    enum Action: Sendable, Equatable {
        /// Nothing.
        case none
        /// Stop sending the body (the server answered early); keep reading the response.
        case stopBody
        /// The exchange ended: deliver the outcome and close or reuse the connection.
        case finish(Outcome, ConnectionFate)
    }

    private enum RequestPhase: Sendable, Equatable {
        case sending
        case sent
        case stopped
    }

    private enum ResponsePhase: Sendable, Equatable {
        case waitingForHead
        case informational
        case receiving(status: Int, headers: [HeaderField], keepAlive: Bool)
        case finished
    }

    private var request = RequestPhase.sending
    private var response = ResponsePhase.waitingForHead
    private var body: [UInt8] = []
    private var writeFailure: String?
    /// Body bytes the socket has taken.
    private(set) var bytesSent: Int64 = 0
    /// Whether any byte of a response arrived.
    private(set) var responseBytesSeen = false
    /// Whether the server reset the connection (a TCP RST) rather than closing it.
    private var peerReset = false
    /// Whether the server closed its side while bytes of the request were still unacknowledged.
    private var peerClosedMissingRequestBytes = false

    /// Creates the machine for a request about to be sent.
    init() {}

    /// Whether the exchange has ended.
    var isFinished: Bool { response == .finished }

    /// Whether body bytes should still be written.
    var isSendingBody: Bool { request == .sending && response != .finished }

    /// Whether the whole request went out and nothing of an answer came yet.
    var awaitsFirstResponseByte: Bool { request == .sent && !responseBytesSeen && response == .waitingForHead }

    /// Whether the server certainly does not have the whole request: its end was never written
    /// in full, the server reset the connection, or it closed the connection while bytes of the
    /// request were unacknowledged. A TCP reset comes from a socket its application closed with
    /// bytes unread, or closed before they arrived, so the application cannot have read the
    /// whole request (a server that aborts after reading everything, with `SO_LINGER` 0, is the
    /// exception this accepts). A server's close (its FIN) acknowledges every byte its machine
    /// received, so a byte still unacknowledged after it never reached the server (a server
    /// that shuts down only its sending side and reads on is the exception this accepts: no
    /// HTTP/1.1 server stops talking before it has read the request).
    var requestCertainlyIncomplete: Bool { request != .sent || peerReset || peerClosedMissingRequestBytes }

    // MARK: Request events

    /// The socket took `count` more body bytes.
    mutating func bodyPartWritten(_ count: Int) {
        guard request == .sending else { return }
        bytesSent += Int64(count)
    }

    /// The whole body has been written.
    mutating func bodyEnded() -> Action {
        guard request == .sending, response != .finished else { return .none }
        request = .sent
        return .none
    }

    /// Writing failed (the server closed or reset its side). The response may still be in
    /// flight — a server that answers early and closes — so this waits for the read side.
    ///
    /// - Parameter message: What failed, for the error if no response comes.
    mutating func bodyWriteFailed(_ message: String) -> Action {
        guard response != .finished, request == .sending else { return .none }
        request = .stopped
        writeFailure = message
        return .none
    }

    // MARK: Response events

    /// Bytes arrived from the server (before decoding).
    mutating func responseBytesArrived() {
        responseBytesSeen = true
    }

    /// A response head was decoded: an informational one (1xx but 101; NIO's decoder passes them
    /// on, each without an end of its own) is noted and the final one still awaited.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The headers in order.
    ///   - keepAlive: Whether the server keeps the connection open after this response.
    mutating func responseHeadReceived(status: Int, headers: [HeaderField], keepAlive: Bool) -> Action {
        switch response {
        case .waitingForHead, .informational:
            if Self.isInformational(status) {
                response = .informational
                return .none
            }
            response = .receiving(status: status, headers: headers, keepAlive: keepAlive)
            if request == .sending {
                request = .stopped
                return .stopBody
            }
            return .none
        case .receiving, .finished:
            return .none
        }
    }

    /// Part of the response body was decoded.
    mutating func responseBodyReceived(_ bytes: some Collection<UInt8>) -> Action {
        guard case let .receiving(status, headers, _) = response else { return .none }
        let room = UploadResponse.maximumCapturedBodyBytes - body.count
        guard bytes.count > room else {
            body += bytes
            return .none
        }
        body += bytes.prefix(room)
        response = .finished
        let captured = UploadResponse(status: status, headers: headers, body: body, isBodyTruncated: true)
        return .finish(.response(captured), .close)
    }

    /// Whether a status is an informational response's (1xx but 101, which switches protocols).
    static func isInformational(_ status: Int) -> Bool {
        (100..<200).contains(status) && status != 101
    }

    /// The response ended as framed.
    mutating func responseEnded() -> Action {
        switch response {
        case .informational:
            response = .waitingForHead
            return .none
        case let .receiving(status, headers, keepAlive):
            response = .finished
            let fate: ConnectionFate = keepAlive && request == .sent ? .reuse : .close
            return .finish(.response(UploadResponse(status: status, headers: headers, body: body)), fate)
        case .waitingForHead, .finished:
            return .none
        }
    }

    // MARK: Failures

    /// The server reset the connection (a read or a write failed with `ECONNRESET` or `EPIPE`);
    /// the failure itself arrives as its own event.
    mutating func connectionReset() {
        peerReset = true
    }

    /// The server closed its side of the connection while the socket still held bytes of the
    /// request it had not acknowledged (`TCPSendQueue`); the close arrives as its own event.
    mutating func peerClosedMissingBytes() {
        peerClosedMissingRequestBytes = true
    }

    /// The connection closed (or reset) with the exchange unfinished.
    mutating func connectionClosed() -> Action {
        switch response {
        case .finished:
            return .none
        case .receiving:
            return fail(.connectionLost(message: "the server closed the connection in the middle of its response"),
                        connectionDropped: true)
        case .waitingForHead, .informational:
            let message: String
            if let writeFailure {
                message = writeFailure
            } else if request == .sending {
                message = "the server closed the connection while the body was being sent"
            } else {
                message = "the server closed the connection before answering"
            }
            return fail(.connectionLost(message: message), connectionDropped: true)
        }
    }

    /// The exchange failed for `reason` (a read error, a reply that is not HTTP, the idle
    /// timeout, a cancel).
    ///
    /// - Parameters:
    ///   - reason: Why.
    ///   - connectionDropped: Whether the cause is the connection closing or resetting (which
    ///     may be re-sent when no response byte arrived); false for timeouts, protocol errors
    ///     and cancels.
    mutating func failed(_ reason: UploadError.TransferReason, connectionDropped: Bool) -> Action {
        guard response != .finished else { return .none }
        return fail(reason, connectionDropped: connectionDropped)
    }

    /// The body could not be read (a file vanished or changed while it was sent).
    mutating func bodyFailed(_ error: MultipartError) -> Action {
        guard response != .finished else { return .none }
        response = .finished
        return .finish(.failed(.multipartFailed(error), beforeResponse: false), .close)
    }

    private mutating func fail(_ reason: UploadError.TransferReason, connectionDropped: Bool) -> Action {
        response = .finished
        let beforeResponse = connectionDropped && !responseBytesSeen
        return .finish(.failed(.transferFailed(reason: reason), beforeResponse: beforeResponse), .close)
    }
}
