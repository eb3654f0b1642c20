/// A header value with parameters, such as `form-data; name="file"; filename="a;b.txt"` or
/// `multipart/form-data; boundary=xyz`, split into its leading value and its parameters.
///
/// A `;` or `=` inside a quoted string belongs to the value (a filename may hold them): this
/// follows RFC 7230 quoted strings
/// (`\"` and `\\` escapes; any other backslash is kept, as old browsers send Windows paths
/// unescaped), and decodes RFC 8187 extended values (`filename*=UTF-8''%E6%97%A5.txt`).
struct HeaderValue: Sendable, Equatable {
    /// The part before the first `;`, trimmed (for example `form-data` or `multipart/form-data`).
    let value: String
    /// The parameters in order, names lowercased, values unquoted and unescaped.
    let parameters: [(name: String, value: String)]

    /// Parses a header value.
    ///
    /// Never fails: anything unparsable ends the parameter list.
    /// - Parameter raw: The header value as received.
    init(parsing raw: String) {
        let scalars = Array(raw.unicodeScalars)
        var index = 0
        var head = String.UnicodeScalarView()
        while index < scalars.count, scalars[index] != ";" {
            head.append(scalars[index])
            index += 1
        }
        self.value = Self.trimmed(String(head))

        var parameters: [(name: String, value: String)] = []
        while index < scalars.count {
            // Skip the separator and any blank space before the parameter name.
            while index < scalars.count, scalars[index] == ";" || Self.isWhitespace(scalars[index]) {
                index += 1
            }
            var name = String.UnicodeScalarView()
            while index < scalars.count, scalars[index] != "=", scalars[index] != ";" {
                name.append(scalars[index])
                index += 1
            }
            let parameterName = Self.trimmed(String(name)).lowercased()
            guard index < scalars.count, scalars[index] == "=" else {
                if !parameterName.isEmpty { parameters.append((parameterName, "")) }
                continue
            }
            index += 1  // "="
            while index < scalars.count, Self.isWhitespace(scalars[index]) { index += 1 }
            var parameterValue = String.UnicodeScalarView()
            if index < scalars.count, scalars[index] == "\"" {
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "\\", index + 1 < scalars.count,
                        scalars[index + 1] == "\"" || scalars[index + 1] == "\\"
                    {
                        index += 1
                    }
                    parameterValue.append(scalars[index])
                    index += 1
                }
                index += 1  // closing quote (or the end)
                while index < scalars.count, scalars[index] != ";" { index += 1 }
                parameters.append((parameterName, String(parameterValue)))
            } else {
                while index < scalars.count, scalars[index] != ";" {
                    parameterValue.append(scalars[index])
                    index += 1
                }
                parameters.append((parameterName, Self.trimmed(String(parameterValue))))
            }
        }
        self.parameters = parameters
    }

    /// The first parameter called `name` (case-insensitive).
    ///
    /// - Parameter name: The parameter name.
    /// - Returns: Its value, or `nil` when absent.
    func parameter(_ name: String) -> String? {
        let lowered = name.lowercased()
        return parameters.first { $0.name == lowered }?.value
    }

    static func == (lhs: HeaderValue, rhs: HeaderValue) -> Bool {
        lhs.value == rhs.value && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }

    /// Decodes an RFC 8187 extended value, `charset'language'percent-encoded`.
    ///
    /// - Parameter raw: The value of a `name*` parameter.
    /// - Returns: The text, or `nil` for charsets other than UTF-8 and ISO-8859-1 or bad encoding.
    static func decodeExtendedValue(_ raw: String) -> String? {
        let pieces = raw.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        let charset = pieces[0].lowercased()
        guard let bytes = percentDecodedBytes(pieces[2]) else { return nil }
        switch charset {
        case "utf-8":
            return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1":
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default:
            return nil
        }
    }

    private static func percentDecodedBytes(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
            let last = scalars.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
