import NIOCore
import Glibc

/// What a TCP connection's send queue holds that the peer has not acknowledged, from Linux's
/// `TCP_INFO` (`struct tcp_info` of `<linux/tcp.h>`, read at its kernel offsets: glibc's copy of
/// the struct stops before the byte counts).
///
/// The unacknowledged part is what `SIOCOUTQ` answers (`write_seq − snd_una`): the bytes not yet
/// sent (`tcpi_notsent_bytes`) and those sent but not acknowledged (`tcpi_bytes_sent −
/// tcpi_bytes_retrans − tcpi_bytes_acked`, each counted since the connection began). Progress
/// counts a body byte only once the peer's machine acknowledged it, so 100 % means the server
/// holds the last byte (`ExchangeHandler`: on plain TCP from `tcpi_bytes_acked` since the
/// request's first byte; over TLS, whose records are a few bytes larger than the body bytes they
/// carry, as the completed writes less what is unacknowledged: less progress, never more).
struct TCPSendQueue: Sendable, Equatable {
    /// Bytes written to the socket that the peer has not acknowledged, sent or not.
    let unacknowledgedBytes: Int64
    /// Bytes the peer acknowledged since the connection began.
    let acknowledgedBytes: Int64

    /// Bytes written to the socket since the connection began: acknowledged or not.
    var writtenBytes: Int64 { acknowledgedBytes + unacknowledgedBytes }

    /// Where the fields used sit in `struct tcp_info` (Linux ≥ 4.19), and its size.
    enum Layout {
        static let bytesAcked = 120
        static let notSentBytes = 144
        static let bytesSent = 200
        static let bytesRetransmitted = 208
        /// The prefix that holds every field read.
        static let requiredSize = 216
        /// The struct's size in Linux 6 (the kernel copies what fits).
        static let size = 232
    }

    /// Reads the queue from a `TCP_INFO` answer.
    ///
    /// - Parameter info: The bytes `getsockopt(IPPROTO_TCP, TCP_INFO)` returned.
    /// - Returns: nil when the answer is too short to hold the byte counts (a kernel before 4.19).
    init?(tcpInfo info: some Collection<UInt8>) {
        guard info.count >= Layout.requiredSize else { return nil }
        let bytes = Array(info)
        func field<T: FixedWidthInteger>(_ offset: Int, as _: T.Type) -> T {
            bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let acked = field(Layout.bytesAcked, as: UInt64.self)
        let sent = field(Layout.bytesSent, as: UInt64.self)
        let retransmitted = field(Layout.bytesRetransmitted, as: UInt64.self)
        let notSent = field(Layout.notSentBytes, as: UInt32.self)
        let (unique, overflow) = sent.subtractingReportingOverflow(retransmitted)
        let inFlight = overflow || unique < acked ? 0 : unique - acked
        unacknowledgedBytes = Int64(clamping: inFlight) + Int64(notSent)
        acknowledgedBytes = Int64(clamping: acked)
    }

    /// The channel's send queue now. **Must** run on the channel's event loop.
    ///
    /// - Parameter channel: A TCP socket channel (TLS or not); an HTTP/2 stream's channel, or
    ///   another kind, has no socket of its own.
    /// - Returns: The queue, or nil when the channel is no TCP socket or the kernel did not say.
    static func current(of channel: any Channel) -> TCPSendQueue? {
        guard channel.parent == nil, channel.isActive, let socket = channel as? any SocketOptionProvider else { return nil }
        var queue: TCPSendQueue?
        let answer: EventLoopFuture<TCPInfoBytes> = socket.unsafeGetSocketOption(level: level, name: name)
        // On the event loop the option is read at once and the future is complete, so its
        // callback runs here; were it not, no figure is better than a late one.
        answer.assumeIsolated().whenSuccess { info in
            queue = withUnsafeBytes(of: info.bytes) { TCPSendQueue(tcpInfo: $0) }
        }
        return queue
    }

    /// `TCP_INFO`'s level and name.
    static let level = SocketOptionLevel(IPPROTO_TCP)
    static let name = SocketOptionName(TCP_INFO)

    /// Room for a `struct tcp_info` (29 × 8 = 232 bytes).
    struct TCPInfoBytes: Sendable {
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }
}
