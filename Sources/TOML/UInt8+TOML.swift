/// The bytes TOML's grammar is written in.
extension UInt8 {
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let quotationMark = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let apostrophe = UInt8(ascii: "'")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let period = UInt8(ascii: ".")
    static let colon = UInt8(ascii: ":")
    static let equalsSign = UInt8(ascii: "=")
    static let leftBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let rightBracket = UInt8(ascii: "]")
    static let underscore = UInt8(ascii: "_")
    static let leftBrace = UInt8(ascii: "{")
    static let rightBrace = UInt8(ascii: "}")

    /// A control character TOML allows in no comment or string: U+0000–U+001F but tab, and U+007F.
    var isControl: Bool { (self < 0x20 && self != .tab) || self == 0x7F }

    /// `A-Z a-z 0-9 _ -`, what a bare key is made of.
    var isBareKey: Bool { isLetter || isDigit || self == .underscore || self == .minus }

    /// `0-9`.
    var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }

    /// `A-Z a-z`.
    var isLetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20) }

    /// `U+0007 (a control character)`, as messages name a control character.
    var scalarName: String {
        let hex = String(self, radix: 16, uppercase: true)
        return "U+\(String(repeating: "0", count: 4 - hex.count))\(hex) (a control character)"
    }
}
