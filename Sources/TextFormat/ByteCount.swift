/// Parses byte counts as people write them on a command line: `1048576`, `512K`, `100MB`,
/// `10GiB`, `1.5G`. Suffixes are binary (K = 1024) whether or not they carry an `i`.
public enum ByteCount {
    /// Parses a byte count.
    ///
    /// - Parameter text: Digits with an optional fraction and an optional unit
    ///   (`B`, `K`/`KB`/`KiB`, `M`…, `G`…, `T`…), case-insensitive.
    /// - Returns: The number of bytes, or `nil` when `text` is not a byte count or overflows.
    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.filter { $0 != " " && $0 != "_" }
        let numberPart = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = trimmed.dropFirst(numberPart.count).lowercased()
        guard !numberPart.isEmpty, let number = Double(numberPart), number >= 0 else { return nil }
        let multiplier: Double
        switch unit {
        case "", "b": multiplier = 1
        case "k", "kb", "kib": multiplier = 1024
        case "m", "mb", "mib": multiplier = 1024 * 1024
        case "g", "gb", "gib": multiplier = 1024 * 1024 * 1024
        case "t", "tb", "tib": multiplier = 1024 * 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = (number * multiplier).rounded(.down)
        guard bytes < 9.2e18 else { return nil }
        return Int64(bytes)
    }
}
