import NIOCore
import NIOPosix

extension ClientBootstrap {
    /// The socket options of every upload connection: `TCP_NODELAY` (level `IPPROTO_TCP`), so a
    /// request head and a small body go out without waiting for the previous segment's ACK.
    ///
    /// It is a TCP option, not a socket option: `.socketOption(.tcp_nodelay)` means level
    /// `SOL_SOCKET`, option 1, which is `SO_DEBUG`, which only root may set — every upload by an
    /// ordinary user failed with "permission denied" while it was set that way.
    ///
    /// - Returns: The bootstrap with the options set.
    func uploadSocketOptions() -> ClientBootstrap {
        channelOption(.tcpOption(.tcp_nodelay), value: 1)
    }
}
