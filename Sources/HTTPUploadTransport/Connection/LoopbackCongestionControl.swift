import NIOCore
import Glibc

/// The TCP congestion control of a connection to this machine itself (`127.0.0.0/8`, `::1`).
///
/// BBR, a Linux default on many servers, paces what a connection sends. Where no `fq` queue
/// discipline does it (loopback has none) TCP paces with a timer of its own, which on loopback —
/// where there is no link to pace for — costs more than the copy `sendfile` saves: 1 GiB to a
/// local receiver took 0.42–0.49 s by sendfile under BBR against 0.13–0.15 s under CUBIC on the
/// same machine (Benchmarks/RESULTS.md). So a loopback connection whose system default paces
/// (`bbr…`) is switched to a loss-based control that does not: CUBIC, else Reno, the one every
/// kernel has and lets every user choose. Other connections keep the system's choice.
enum LoopbackCongestionControl {
    /// The controls to try in order for a connection, none when it keeps the current one.
    ///
    /// - Parameters:
    ///   - current: The connection's control now (`TCP_CONGESTION`), e.g. `bbr`.
    ///   - peerIsLoopback: Whether the other end is this machine.
    /// - Returns: Names for `TCP_CONGESTION`, the first that the kernel accepts to be used.
    static func replacements(current: String, peerIsLoopback: Bool) -> [String] {
        guard peerIsLoopback, current.hasPrefix("bbr") else { return [] }
        return ["cubic", "reno"]
    }

    /// Whether an address is this machine's loopback (`127.0.0.0/8`, `::1`, or `::ffff:127.x.x.x`).
    ///
    /// - Parameter address: The connection's remote address.
    /// - Returns: True for a loopback address.
    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case let .v4(ip):
            return UInt32(bigEndian: ip.address.sin_addr.s_addr) >> 24 == 127
        case let .v6(ip):
            let bytes = withUnsafeBytes(of: ip.address.sin6_addr) { Array($0) }
            let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
            let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
            return bytes == loopback || (Array(bytes[0..<12]) == mappedPrefix && bytes[12] == 127)
        case .unixDomainSocket:
            return false
        }
    }

    /// Switches a connected channel's control where ``replacements(current:peerIsLoopback:)``
    /// says to. Best effort: a socket that refuses keeps what it has. **Must** run on the
    /// channel's event loop (where the socket's options are read and set at once).
    ///
    /// - Parameter channel: A connected TCP channel.
    static func apply(to channel: any Channel) {
        guard let address = channel.remoteAddress, isLoopback(address),
              let socket = channel as? any SocketOptionProvider else { return }
        let current: EventLoopFuture<AlgorithmName> = socket.unsafeGetSocketOption(level: level, name: name)
        current.whenSuccess { current in
            set(replacements(current: current.string, peerIsLoopback: true)[...], on: socket)
        }
    }

    /// `TCP_CONGESTION`'s level and name.
    static let level = SocketOptionLevel(IPPROTO_TCP)
    static let name = SocketOptionName(TCP_CONGESTION)

    /// Sets the first of `names` the socket takes.
    private static func set(_ names: ArraySlice<String>, on socket: any SocketOptionProvider) {
        guard let first = names.first else { return }
        socket.unsafeSetSocketOption(level: level, name: name, value: AlgorithmName(first)).whenFailure { _ in
            set(names.dropFirst(), on: socket)
        }
    }

    /// A `TCP_CONGESTION` value: a name in 16 bytes, NUL-padded.
    struct AlgorithmName: Sendable {
        var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        init(_ name: String) {
            withUnsafeMutableBytes(of: &bytes) { buffer in
                for (index, byte) in name.utf8.prefix(15).enumerated() { buffer[index] = byte }
            }
        }

        var string: String {
            withUnsafeBytes(of: bytes) { buffer in
                String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
    }
}
