/// How many terminal columns text takes, in the manner of `wcwidth(3)` but per grapheme.
///
/// Rules, for a single scalar:
/// - C0 and C1 control characters and DEL: 0 (they must be escaped before display; see
///   ``escapingControls(_:)`` and ``displayable(bytes:)``).
/// - Combining marks, format characters (ZERO WIDTH JOINER, variation selectors, …) and
///   Hangul medial/final jamo: 0.
/// - East Asian Wide and Fullwidth (CJK, Hangul syllables, fullwidth forms, emoji with
///   emoji presentation such as U+1F300–U+1FAFF) and regional indicators: 2.
/// - Everything else, East Asian Ambiguous included: 1.
///
/// A grapheme cluster (a Swift `Character`) takes the width of its first scalar that has
/// one, widened to 2 by a trailing VARIATION SELECTOR-16 on an emoji (`❤️`). So a ZWJ
/// sequence (`👨‍👩‍👧`), a flag (`🇯🇵`), a skin-tone sequence and a decomposed Hangul
/// syllable each take 2 columns and `e` + COMBINING ACUTE takes 1. A grapheme that starts
/// with a control character takes 0.
public enum DisplayWidth {
    /// Whether `scalar` is a C0 or C1 control character or DEL.
    ///
    /// - Parameter scalar: The scalar to test.
    /// - Returns: `true` for U+0000–U+001F and U+007F–U+009F.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (value >= 0x7F && value < 0xA0)
    }

    /// The display width of one scalar: 0, 1 or 2.
    ///
    /// - Parameter scalar: The scalar to measure.
    /// - Returns: The number of columns; 0 for controls and zero-width characters.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        if value < 0x0300 { return 1 }
        if isRegionalIndicator(value) { return 2 }
        if contains(zeroWidthRanges, value) { return 0 }
        if contains(wideRanges, value) { return 2 }
        return 1
    }

    /// The display width of one grapheme cluster: 0, 1 or 2.
    ///
    /// - Parameter character: The grapheme to measure.
    /// - Returns: The number of columns; 0 when it starts with a control character or
    ///   consists of zero-width scalars only.
    public static func of(_ character: Character) -> Int {
        if character.utf8.count == 1, let byte = character.utf8.first {
            return byte >= 0x20 && byte < 0x7F ? 1 : 0
        }
        var iterator = character.unicodeScalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        if isControl(first) { return 0 }
        var width = of(first)
        var base = first
        var hasEmojiPresentationSelector = false
        while let scalar = iterator.next() {
            if scalar.value == 0xFE0F {
                hasEmojiPresentationSelector = true
            } else if width == 0 {
                let scalarWidth = of(scalar)
                if scalarWidth > 0 {
                    width = scalarWidth
                    base = scalar
                }
            }
        }
        if hasEmojiPresentationSelector && width == 1 && base.properties.isEmoji {
            return 2
        }
        return width
    }

    /// The display width of a string: the sum of its graphemes' widths.
    ///
    /// - Parameter string: The text to measure.
    /// - Returns: The number of columns it takes on one line; control characters count 0.
    public static func of<S: StringProtocol>(_ string: S) -> Int {
        var count = 0
        for byte in string.utf8 {
            if byte >= 0x80 {
                return string.reduce(0) { $0 + of($1) }
            }
            if byte >= 0x20 && byte != 0x7F { count += 1 }
        }
        return count
    }

    static func isRegionalIndicator(_ value: UInt32) -> Bool {
        value >= 0x1F1E6 && value <= 0x1F1FF
    }

    static func contains(_ ranges: [(UInt32, UInt32)], _ value: UInt32) -> Bool {
        guard let first = ranges.first, let last = ranges.last,
              value >= first.0, value <= last.1 else { return false }
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if value < ranges[middle].0 {
                high = middle - 1
            } else if value > ranges[middle].1 {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
