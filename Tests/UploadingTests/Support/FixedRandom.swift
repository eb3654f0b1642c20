/// A random source that always draws the same jitter fraction.
struct FixedRandom: RandomNumberGenerator, Sendable {
    let value: UInt64

    /// - Parameter fraction: The jitter fraction drawn every time, in 0..<1.
    init(fraction: Double) {
        value = UInt64(fraction * 0x1p53) << 11
    }

    mutating func next() -> UInt64 {
        value
    }
}
