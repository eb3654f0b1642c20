import Glibc
import Synchronization

/// Words from the system's cryptographic random source (`getentropy(3)`, one `getrandom(2)`),
/// taken from a pool the process shares: a boundary needs four, `SystemRandomNumberGenerator`
/// makes one call per word, and a queue of small files makes a boundary per file, so the pool
/// is filled with as many words as one call gives (32) and each word is handed out once.
struct PrefetchedSystemRandom: RandomNumberGenerator {
    /// Words fetched and not yet handed out.
    private static let pool = Mutex<[UInt64]>([])
    /// The most words one `getentropy` call fills (256 bytes).
    private static let wordsPerCall = 32

    private var words: [UInt64]
    private var fallback = SystemRandomNumberGenerator()

    /// Takes `count` words from the pool now, filling it first if it has fewer.
    ///
    /// - Parameter count: How many words `next()` hands out before it falls back to one call per
    ///   word (all of them, when more than one call gives or the source fails).
    init(count: Int) {
        words = Self.pool.withLock { pool in
            if pool.count < count, count <= Self.wordsPerCall {
                var fresh = [UInt64](repeating: 0, count: Self.wordsPerCall)
                let filled = fresh.withUnsafeMutableBytes { space in
                    Glibc.getentropy(space.baseAddress, space.count) == 0
                }
                pool = filled ? fresh : []
            }
            guard pool.count >= count else { return [] }
            defer { pool.removeLast(count) }
            return Array(pool.suffix(count))
        }
    }

    mutating func next() -> UInt64 {
        words.popLast() ?? fallback.next()
    }
}
