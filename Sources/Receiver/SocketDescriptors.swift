import NIOCore
import Glibc

/// Finds this process's descriptor of a socket NIO opened (NIO does not expose its descriptors)
/// by asking each open descriptor what it is, and duplicates it.
enum SocketDescriptors {
    /// Where the process's open descriptors are listed.
    private static let descriptorDirectory = "/proc/self/fd"

    /// A close-on-exec duplicate of the first open descriptor that `matches`, so the caller's
    /// descriptor stays valid whatever becomes of the original and is never passed to a spawned
    /// process.
    ///
    /// - Parameter matches: Whether a descriptor is the socket wanted.
    /// - Returns: The duplicate, or `nil` when no descriptor matches (or there is no descriptor
    ///   listing, or the duplicate cannot be made).
    static func duplicate(where matches: (Int32) -> Bool) -> Int32? {
        guard let directory = opendir(descriptorDirectory) else { return nil }
        defer { closedir(directory) }
        let own = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let candidate = Int32(name), candidate != own, matches(candidate) {
                let duplicate = fcntl(candidate, F_DUPFD_CLOEXEC, 0)
                return duplicate >= 0 ? duplicate : nil
            }
        }
        return nil
    }

    /// Whether `candidate` is a listening socket.
    ///
    /// - Parameter candidate: An open descriptor.
    /// - Returns: `true` for a socket that accepts connections.
    static func isListening(_ candidate: Int32) -> Bool {
        var accepting: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(candidate, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0 && accepting != 0
    }

    /// Whether `candidate`'s local address is `address`, byte for byte.
    ///
    /// - Parameters:
    ///   - candidate: An open descriptor.
    ///   - address: The address to compare with.
    /// - Returns: `true` for a socket bound to `address`.
    static func isBound(_ candidate: Int32, to address: SocketAddress) -> Bool {
        matches(address) { getsockname(candidate, $0, $1) }
    }

    /// Whether `candidate`'s peer address is `address`, byte for byte.
    ///
    /// - Parameters:
    ///   - candidate: An open descriptor.
    ///   - address: The address to compare with.
    /// - Returns: `true` for a socket connected to `address`.
    static func isConnected(_ candidate: Int32, to address: SocketAddress) -> Bool {
        matches(address) { getpeername(candidate, $0, $1) }
    }

    /// Whether the address `name` (`getsockname` or `getpeername`) fills in is `address`.
    private static func matches(
        _ address: SocketAddress,
        _ name: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { name($0, &length) }
        }
        guard named == 0 else { return false }
        return address.withSockAddr { expected, size in
            size == Int(length) && withUnsafeBytes(of: &storage) { memcmp($0.baseAddress!, expected, size) == 0 }
        }
    }
}
