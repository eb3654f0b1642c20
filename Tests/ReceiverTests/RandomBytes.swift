import Receiver

/// Reproducible pseudo-random content for test files.
enum RandomBytes {
    /// `count` bytes from a seeded generator (all byte values, including CR, LF and `-`).
    ///
    /// - Parameters:
    ///   - count: How many bytes.
    ///   - seed: The seed; equal seeds give equal bytes.
    /// - Returns: The bytes.
    static func make(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }
}
