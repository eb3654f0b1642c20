extension DisplayWidth {
    /// Whether `scalar` must not reach the terminal as it is: control characters, the line
    /// and paragraph separators, and the bidirectional embedding, override and isolate
    /// controls (which could make a file name display as something it is not).
    ///
    /// - Parameter scalar: The scalar to test.
    /// - Returns: `true` when the scalar is shown escaped.
    public static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if isControl(scalar) { return true }
        switch value {
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The visible escape for a scalar: `\x1B` for ASCII controls and DEL, `\u{85}` for
    /// others.
    ///
    /// - Parameter scalar: The scalar to escape.
    /// - Returns: The escape text (ASCII only).
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        if scalar.value < 0x80 {
            return "\\x" + (hex.count < 2 ? "0" + hex : hex)
        }
        return "\\u{" + hex + "}"
    }

    /// The escape for one raw byte that is not part of valid UTF-8: `\xNN`.
    ///
    /// - Parameter byte: The byte.
    /// - Returns: The escape text.
    public static func escape(byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "\\x" + (hex.count < 2 ? "0" + hex : hex)
    }

    /// Makes text safe to draw: scalars for which ``needsEscaping(_:)`` holds are replaced
    /// by their ``escape(_:)``, and so are zero-width scalars at the start of a grapheme
    /// (a lone combining mark or ZERO WIDTH SPACE), which would otherwise vanish or join
    /// the previous cell.
    ///
    /// - Parameter string: The text, e.g. a file name or a server message.
    /// - Returns: Text whose every grapheme has a display width of at least 1.
    public static func escapingControls<S: StringProtocol>(_ string: S) -> String {
        var needsWork = false
        for scalar in string.unicodeScalars where scalar.value < 0x20 || scalar.value >= 0x7F {
            needsWork = true
            break
        }
        guard needsWork else { return String(string) }
        var result = ""
        for character in string {
            let scalars = character.unicodeScalars
            guard let first = scalars.first else { continue }
            let leadingIsInvisible = needsEscaping(first) || of(first) == 0
            for scalar in scalars {
                if needsEscaping(scalar) || (leadingIsInvisible && of(scalar) == 0) {
                    result += escape(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Makes raw bytes (a file name from `readdir`, say) displayable: valid UTF-8 is shown
    /// as it is, every byte that is not part of valid UTF-8 is shown as `\xNN`, and control
    /// characters are escaped as by ``escapingControls(_:)``.
    ///
    /// - Parameter bytes: The raw bytes.
    /// - Returns: Text that is safe to draw and shows every byte.
    public static func displayable<Bytes: Sequence>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        var result = ""
        var decoded = String.UnicodeScalarView()
        func flushDecoded() {
            if !decoded.isEmpty {
                result += escapingControls(String(decoded))
                decoded = String.UnicodeScalarView()
            }
        }
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = decodeScalar(in: bytes, at: index) {
                decoded.append(scalar)
                index += length
            } else {
                flushDecoded()
                result += escape(byte: bytes[index])
                index += 1
            }
        }
        flushDecoded()
        return result
    }

    /// Decodes one well-formed UTF-8 sequence (no overlongs, no surrogates, at most
    /// U+10FFFF) starting at `index`.
    private static func decodeScalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0: length = 3; value = 0; secondRange = 0xA0...0xBF
        case 0xED: length = 3; value = UInt32(lead & 0x0F); secondRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0: length = 4; value = 0; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4; value = UInt32(lead & 0x07)
        case 0xF4: length = 4; value = 4; secondRange = 0x80...0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            let range: ClosedRange<UInt8> = offset == 1 ? secondRange : 0x80...0xBF
            guard range.contains(byte) else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
