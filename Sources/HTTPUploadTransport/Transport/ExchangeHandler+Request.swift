import Multipart
import NIOCore
import NIOHTTP1
import UploadModel

extension ExchangeHandler {
    /// One request to run.
    struct Request: Sendable {
        /// Names the exchange for `cancel(token:)`.
        let token: Int
        /// Whether the attempt was cancelled: a cancel that reached the event loop before the
        /// exchange started cannot name it yet, so `PooledConnection` asks this at the start.
        let isCancelled: @Sendable () -> Bool
        /// The request head.
        let head: HTTPRequestHead
        /// The body's length (its `Content-Length`).
        let bodyLength: Int64
        /// The body, already reading.
        let pump: BodyPump
        /// How long no byte may move before the exchange fails.
        let idleTimeout: TimeAmount
        /// Receives the cumulative body bytes the peer acknowledged (on an HTTP/2 stream: those
        /// written) whenever they grew (it only records them: `TransportTask.bytesWritten`).
        let wrote: @Sendable (Int64) -> Void
        /// Asked just before the body's last byte is written: false holds it back, and the
        /// exchange fails and closes the connection instead (`UploadTransport`).
        let bodyCompleting: @Sendable () -> Bool
        /// Receives each informational response (1xx but 101: status and headers), on the
        /// event loop, before the final one.
        var informational: (@Sendable (Int, [HeaderField]) -> Void)?
        /// Receives the outcome once, after the connection was closed or made reusable, and
        /// whether a failure before any response byte may be re-sent on a new connection without
        /// counting an attempt: the connection had carried an exchange before this one and the
        /// server certainly lacks the request (HTTP/1.1: the server closed it while idle, before
        /// the last byte or with a reset; `ExchangeStateMachine.requestCertainlyIncomplete`), or
        /// the server refused the stream (HTTP/2).
        let ended: @Sendable (ExchangeStateMachine.Outcome, ExchangeStateMachine.ConnectionFate, _ mayResend: Bool) -> Void
    }
}
