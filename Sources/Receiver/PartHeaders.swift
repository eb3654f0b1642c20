/// What the receiver needs from one multipart part's headers: its field name, whether it is a
/// file (and the filename the client sent), and its content type.
struct PartHeaders: Sendable, Equatable {
    /// The form field name (`name` in `Content-Disposition`).
    let name: String
    /// The filename the client sent, decoded; `nil` for a text field.
    let filename: String?
    /// The part's `Content-Type`, if it had one.
    let contentType: String?

    /// Builds the part description from its raw headers, in the order received.
    ///
    /// Names and filenames are decoded the way browsers and curl (7.81 and later) encode them:
    /// `%22`, `%0D` and `%0A` become `"`, CR and LF (the WHATWG form-data escapes); a
    /// `filename*` extended value wins over `filename`.
    /// - Parameter headers: `(name, value)` pairs as the multipart parser reported them.
    /// - Throws: ``ReceiverError/requestRejected(reason:)`` with `malformedPartHeaders` when
    ///   there is no `Content-Disposition: form-data` with a `name`.
    init(headers: [(name: String, value: String)]) throws(ReceiverError) {
        guard let disposition = headers.first(where: { $0.name.lowercased() == "content-disposition" }) else {
            throw .requestRejected(reason: .malformedPartHeaders(detail: "a part has no Content-Disposition header"))
        }
        let parsed = HeaderValue(parsing: disposition.value)
        guard parsed.value.lowercased() == "form-data" else {
            throw .requestRejected(
                reason: .malformedPartHeaders(detail: "Content-Disposition is '\(parsed.value)', expected form-data"))
        }
        guard let name = parsed.parameter("name") else {
            throw .requestRejected(reason: .malformedPartHeaders(detail: "a part's Content-Disposition has no name"))
        }
        self.name = Self.decodeFormEscapes(name)
        if let extended = parsed.parameter("filename*").flatMap(HeaderValue.decodeExtendedValue) {
            self.filename = extended
        } else {
            self.filename = parsed.parameter("filename").map(Self.decodeFormEscapes)
        }
        let type = headers.first(where: { $0.name.lowercased() == "content-type" })?.value
        self.contentType = type.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Creates a part description directly (for tests).
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - filename: The filename, or `nil` for a text field.
    ///   - contentType: The content type, if any.
    init(name: String, filename: String?, contentType: String?) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
    }

    /// Reverses the WHATWG escapes `%22`, `%0D`, `%0A` (any hex case); other `%` stay as they are.
    static func decodeFormEscapes(_ text: String) -> String {
        // Scalars, not Characters: "%22" followed by a combining mark is one Character ("2" and
        // the mark) but still an escape (found by Fuzz/).
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains("%") else { return text }
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "%", index + 2 < scalars.count {
                let decoded: Unicode.Scalar? =
                    switch String(String.UnicodeScalarView(scalars[(index + 1)...(index + 2)])).uppercased() {
                    case "22": "\""
                    case "0D": "\r"
                    case "0A": "\n"
                    default: nil
                    }
                if let decoded {
                    result.append(decoded)
                    index += 3
                    continue
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }
}
