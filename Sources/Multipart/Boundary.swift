/// The boundary that separates the parts of a body (RFC 2046 §5.1.1).
public struct Boundary: Sendable, Hashable, CustomStringConvertible {
    /// The boundary text, without the leading `--`.
    public let value: String

    /// Characters a boundary may hold (RFC 2046 `bchars`).
    static let allowedCharacters: Set<UInt8> = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)

    /// The alphabet random boundaries are drawn from: letters, digits, `-` and `_`; 64 symbols,
    /// so each carries exactly 6 bits.
    private static let randomAlphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_".utf8)

    /// Number of random symbols: 32 × 6 = 192 bits, well over the required 128, drawn ten at a
    /// time from 64-bit words (four words, taken from the process's pool of random words).
    private static let randomSymbolCount = 32

    /// Validates an injected boundary.
    ///
    /// - Parameter value: 1 to 70 `bchars`, not ending in a space.
    /// - Throws: `MultipartError.invalidBoundary` when it is not a valid boundary.
    public init(_ value: String) throws(MultipartError) {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= 70, bytes.last != UInt8(ascii: " "),
              bytes.allSatisfy(Boundary.allowedCharacters.contains)
        else { throw .invalidBoundary(value) }
        self.value = value
    }

    private init(unchecked value: String) {
        self.value = value
    }

    /// A new boundary from the system's cryptographic random source.
    ///
    /// The symbols come from the system's cryptographic random source, read 32 words (eight
    /// boundaries) per call (`PrefetchedSystemRandom`).
    ///
    /// - Returns: `ferry-` followed by 32 random symbols (38 characters).
    public static func random() -> Boundary {
        var generator = PrefetchedSystemRandom(count: (randomSymbolCount + 9) / 10)
        return random(using: &generator)
    }

    /// A new boundary drawn from the given generator.
    ///
    /// - Parameter generator: The random source; pass a seeded one only in tests.
    /// - Returns: `ferry-` followed by 32 random symbols.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> Boundary {
        let prefix = "ferry-".utf8
        let value = String(unsafeUninitializedCapacity: prefix.count + randomSymbolCount) { bytes in
            var count = bytes.initialize(fromContentsOf: prefix)
            var word: UInt64 = 0
            var bitsLeft = 0
            for _ in 0..<randomSymbolCount {
                if bitsLeft < 6 {
                    word = generator.next()
                    bitsLeft = 64
                }
                bytes[count] = randomAlphabet[Int(word & 63)]
                count += 1
                word >>= 6
                bitsLeft -= 6
            }
            return count
        }
        return Boundary(unchecked: value)
    }

    public var description: String { value }
}
