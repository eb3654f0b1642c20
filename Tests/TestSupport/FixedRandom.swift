/// A random source that always draws the same jitter fraction.
package struct FixedRandom: RandomNumberGenerator, Sendable {
    package let value: UInt64

    /// - Parameter fraction: The jitter fraction drawn every time, in 0..<1.
    package init(fraction: Double) {
        value = UInt64(fraction * 0x1p53) << 11
    }

    package mutating func next() -> UInt64 {
        value
    }
}
