/// How long a connection may keep the receiver waiting, as a hardened HTTP server has them
/// (nginx's `client_header_timeout`, `client_body_timeout`, `send_timeout`,
/// `keepalive_timeout`; a minimum body rate as Kestrel and Apache's mod_reqtimeout have).
///
/// A request whose head or body stops moving is answered 408 and its connection closed; an idle
/// connection, or one whose client stopped reading the answer, is closed. Time the receiver
/// itself spends not reading (writing a file, `--stall`) never counts against a client.
public struct ReceiverTimeouts: Sendable, Hashable {
    /// The longest a request head may take, from its first byte (from the connection's start
    /// for a first request) to its end. Default 20 s.
    public var header: Duration
    /// The longest wait for the next bytes of a request body. Default 60 s.
    public var body: Duration
    /// The slowest body accepted, in bytes per second, averaged over each ``rateWindow`` of
    /// waiting for it; 0 turns the check off. Default 500 (what mod_reqtimeout asks).
    public var minimumBodyRate: Int
    /// The stretch of waiting over which ``minimumBodyRate`` is measured. Default 10 s.
    public var rateWindow: Duration
    /// The longest an answer may wait for the client to read it. Default 60 s.
    public var send: Duration
    /// The longest a kept-alive connection may stay without a request. Default 75 s.
    public var keepAliveIdle: Duration

    /// The defaults of `ferry serve`.
    public static let standard = ReceiverTimeouts()

    /// Creates timeouts.
    ///
    /// - Parameters:
    ///   - header: Longest time for a request head.
    ///   - body: Longest wait for the next body bytes.
    ///   - minimumBodyRate: Slowest body accepted in bytes per second (0: no check).
    ///   - rateWindow: Waiting time over which the rate is measured.
    ///   - send: Longest wait for the client to read the answer.
    ///   - keepAliveIdle: Longest idle time between requests.
    public init(
        header: Duration = .seconds(20),
        body: Duration = .seconds(60),
        minimumBodyRate: Int = 500,
        rateWindow: Duration = .seconds(10),
        send: Duration = .seconds(60),
        keepAliveIdle: Duration = .seconds(75)
    ) {
        self.header = header
        self.body = body
        self.minimumBodyRate = minimumBodyRate
        self.rateWindow = rateWindow
        self.send = send
        self.keepAliveIdle = keepAliveIdle
    }

    /// Checks every value is in range.
    ///
    /// - Throws: ``ReceiverError/invalidConfiguration(reason:)`` naming the first bad option.
    public func validate() throws(ReceiverError) {
        let durations: [(String, Duration)] = [
            ("--header-timeout", header), ("--body-timeout", body), ("rateWindow", rateWindow),
            ("--send-timeout", send), ("--keepalive-timeout", keepAliveIdle),
        ]
        for (option, duration) in durations where duration <= .zero || duration > .seconds(86_400) {
            throw .invalidConfiguration(
                reason: .valueOutOfRange(option: option, value: duration.components.seconds, allowed: 1...86_400))
        }
        if minimumBodyRate < 0 {
            throw .invalidConfiguration(
                reason: .valueOutOfRange(option: "--min-body-rate", value: Int64(minimumBodyRate), allowed: 0...Int64(Int32.max)))
        }
    }
}
