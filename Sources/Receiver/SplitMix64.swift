/// A small, fast, seedable random number generator (SplitMix64) for reproducible fault injection.
///
/// Not for cryptography. The same seed always gives the same sequence on every platform.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    ///
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// Returns the next 64 random bits.
    ///
    /// - Returns: A pseudo-random value.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
