/// Bytes as lowercase hexadecimal text, without Foundation's `String(format:)`.
extension Sequence<UInt8> {
    /// Two lowercase hexadecimal digits per byte: `[0x0f, 0xa0]` is `"0fa0"`.
    public var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
