import Glibc

/// Words from the system's cryptographic random source (`getentropy(3)`, one `getrandom(2)`),
/// fetched together: a boundary needs four, and `SystemRandomNumberGenerator` makes one call per
/// word.
struct PrefetchedSystemRandom: RandomNumberGenerator {
    private var words: [UInt64]
    private var fallback = SystemRandomNumberGenerator()

    /// Fetches `count` words now.
    ///
    /// - Parameter count: How many words `next()` hands out before it falls back to one call per
    ///   word.
    init(count: Int) {
        var words = [UInt64](repeating: 0, count: count)
        // getentropy fills at most 256 bytes; more words than that are left to the fallback.
        let filled = count * 8 <= 256 && words.withUnsafeMutableBytes { space in
            Glibc.getentropy(space.baseAddress, space.count) == 0
        }
        self.words = filled ? words.reversed() : []
    }

    mutating func next() -> UInt64 {
        words.popLast() ?? fallback.next()
    }
}
