/// Line-break normalisation for field names (the WHATWG algorithm; values go as given).
enum LineBreaks {
    /// The text with every CR, LF and CRLF replaced by CRLF.
    ///
    /// - Parameter text: Any text.
    /// - Returns: The text with CRLF line breaks only.
    static func normalizedToCRLF(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D {
                out.append(contentsOf: [0x0D, 0x0A])
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else if byte == 0x0A {
                out.append(contentsOf: [0x0D, 0x0A])
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
