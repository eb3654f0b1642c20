/// Escaping of names and filenames in `Content-Disposition`, as the WHATWG HTML standard and
/// curl ≥ 7.81 do it.
///
/// `"` becomes `%22`, CR `%0D`, LF `%0A`; every other character, UTF-8 included, is sent raw;
/// a NUL byte is an error. Field names (not filenames) first have their line breaks normalised
/// to CRLF, as the standard's "multipart/form-data encoding algorithm" says.
enum FieldEscaping {
    /// The escaped form of a field name.
    ///
    /// - Parameter name: The field name as given.
    /// - Returns: The text to put between the quotes of `name="…"`.
    /// - Throws: `MultipartError.invalidText` if the name holds a NUL.
    static func escapeName(_ name: String) throws(MultipartError) -> String {
        guard !name.utf8.contains(0) else { throw .invalidText(field: .name(name), reason: .containsNUL) }
        return escapeQuotesAndLineBreaks(LineBreaks.normalizedToCRLF(name))
    }

    /// The escaped form of a filename.
    ///
    /// - Parameter filename: The filename as given.
    /// - Returns: The text to put between the quotes of `filename="…"`.
    /// - Throws: `MultipartError.invalidText` if the filename holds a NUL.
    static func escapeFilename(_ filename: String) throws(MultipartError) -> String {
        guard !filename.utf8.contains(0) else {
            throw .invalidText(field: .filename(filename), reason: .containsNUL)
        }
        return escapeQuotesAndLineBreaks(filename)
    }

    private static func escapeQuotesAndLineBreaks(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "%22".utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: "%0D".utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: "%0A".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
