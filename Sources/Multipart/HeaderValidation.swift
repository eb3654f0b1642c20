/// Checks on text that goes into part headers, so that no value can end a header early or
/// smuggle in another one.
enum HeaderValidation {
    /// Checks a whole header: a token name and a value without line breaks or NUL.
    ///
    /// - Parameter header: The header.
    /// - Throws: `MultipartError.invalidText` saying what is wrong.
    static func check(_ header: HeaderField) throws(MultipartError) {
        let label = MultipartError.TextField.header("\(header.name): \(header.value)")
        guard !header.name.isEmpty else { throw .invalidText(field: label, reason: .empty) }
        guard HTTPToken.isToken(header.name) else {
            throw .invalidText(field: label, reason: .invalidHeaderName)
        }
        try checkValue(header.value, field: label)
    }

    /// Checks a header value: no CR, LF or NUL.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - field: What the value is, for the error.
    /// - Throws: `MultipartError.invalidText` saying what is wrong.
    static func checkValue(_ value: String, field: MultipartError.TextField) throws(MultipartError) {
        for byte in value.utf8 {
            if byte == 0 { throw .invalidText(field: field, reason: .containsNUL) }
            if byte == 0x0D || byte == 0x0A { throw .invalidText(field: field, reason: .containsLineBreak) }
        }
    }
}
