import FoundationEssentials

/// The XML error S3 and stores like it answer with (`<Error><Code>EntityTooLarge</Code>
/// <Message>Your proposed upload exceeds the maximum allowed size</Message>…</Error>`), read so
/// a failure can say in words why the store refused the upload.
public struct S3ErrorDocument: Sendable, Hashable, CustomStringConvertible {
    /// The error code (`EntityTooLarge`, `AccessDenied`, …).
    public var code: String
    /// The message, if the document has one.
    public var message: String?

    /// Reads an error document.
    ///
    /// - Parameter body: A response body.
    /// - Returns: The error, or nil when the body is not an `<Error>` document with a `<Code>`.
    public init?(body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        guard let error = Self.element("Error", in: Substring(text)),
              let code = Self.element("Code", in: error).map(Self.unescaped), !code.isEmpty else { return nil }
        self.code = code
        message = Self.element("Message", in: error).map(Self.unescaped).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Creates an error from its pieces.
    public init(code: String, message: String?) {
        self.code = code
        self.message = message
    }

    /// "S3 refused the upload: CODE — MESSAGE".
    public var description: String {
        "S3 refused the upload: \(code)" + (message.map { " — \($0)" } ?? "")
    }

    /// The text between `<name>` and `</name>` (the first such element), trimmed.
    private static func element(_ name: String, in text: Substring) -> Substring? {
        guard let open = text.firstRange(of: "<\(name)>"),
              let close = text[open.upperBound...].firstRange(of: "</\(name)>") else { return nil }
        return text[open.upperBound..<close.lowerBound]
    }

    /// Text with XML's predefined and numeric character references replaced, white space
    /// trimmed; a CDATA section's text as it is.
    private static func unescaped(_ text: Substring) -> String {
        var trimmed = text.drop { $0.isWhitespace }
        while trimmed.last?.isWhitespace == true { trimmed = trimmed.dropLast() }
        if trimmed.hasPrefix("<![CDATA["), trimmed.hasSuffix("]]>") { return String(trimmed.dropFirst(9).dropLast(3)) }
        let named = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        var result = ""
        var rest = trimmed
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            if let character = named[String(entity)] {
                result += character
            } else if entity.hasPrefix("#"), let scalar = numericScalar(entity.dropFirst()) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// The scalar of `#NN` or `#xHH` (without the `#`).
    private static func numericScalar(_ digits: Substring) -> Unicode.Scalar? {
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return value.flatMap(Unicode.Scalar.init)
    }
}
