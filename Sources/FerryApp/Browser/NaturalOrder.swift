/// The order file managers sort names in: runs of digits compare by their value, so `data_2`
/// comes before `data_10`; everything else compares byte by byte (callers pass folded names).
/// Equal values with different leading zeros (`2`, `02`) put the shorter first.
public enum NaturalOrder {
    /// Whether `lhs` sorts before `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: A name.
    ///   - rhs: Another name.
    /// - Returns: Whether `lhs` comes first.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        compare(Array(lhs.utf8), Array(rhs.utf8)) < 0
    }

    /// Compares two names as UTF-8: negative when `a` comes first, 0 when they are equal.
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var i = 0, j = 0
        var zerosTieBreak = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                let startA = i, startB = j
                while i < a.count && a[i] == 0x30 { i += 1 }
                while j < b.count && b[j] == 0x30 { j += 1 }
                let digitsA = i, digitsB = j
                while i < a.count && isDigit(a[i]) { i += 1 }
                while j < b.count && isDigit(b[j]) { j += 1 }
                let lengthA = i - digitsA, lengthB = j - digitsB
                if lengthA != lengthB { return lengthA - lengthB }
                for offset in 0..<lengthA where a[digitsA + offset] != b[digitsB + offset] {
                    return Int(a[digitsA + offset]) - Int(b[digitsB + offset])
                }
                if zerosTieBreak == 0 { zerosTieBreak = (i - startA) - (j - startB) }
            } else {
                if a[i] != b[j] { return Int(a[i]) - Int(b[j]) }
                i += 1
                j += 1
            }
        }
        let remaining = (a.count - i) - (b.count - j)
        return remaining != 0 ? remaining : zerosTieBreak
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
