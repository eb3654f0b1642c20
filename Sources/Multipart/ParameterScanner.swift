/// Reads the words and `;key=` parameters of a curl `-F` value.
struct ParameterScanner {
    private var rest: Substring

    init(_ text: Substring) {
        rest = text
    }

    func peek() -> Character? { rest.first }

    mutating func skip() { rest = rest.dropFirst() }

    /// Consumes a `;` and the spaces after it.
    ///
    /// - Returns: False at the end of the text.
    mutating func skipSemicolon() -> Bool {
        guard rest.first == ";" else { return false }
        rest = rest.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
        return true
    }

    /// Consumes `key=` and returns `key`; the whole rest if there is no `=` (an unknown parameter).
    mutating func key() -> String {
        guard let equals = rest.firstIndex(of: "="), !rest[..<equals].contains(";") else {
            let word = rest.prefix(while: { $0 != ";" })
            rest = rest[word.endIndex...]
            return String(word)
        }
        let key = rest[..<equals]
        rest = rest[rest.index(after: equals)...]
        return String(key)
    }

    /// Consumes a word: a double-quoted string (with `\"` and `\\` escapes) or text up to `;`.
    mutating func word(in argument: String) throws(CurlFormSyntaxError) -> String {
        guard rest.first == "\"" else {
            let word = rest.prefix(while: { $0 != ";" })
            rest = rest[word.endIndex...]
            return String(word)
        }
        var result = ""
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex {
            let character = rest[index]
            if character == "\\", rest.index(after: index) < rest.endIndex,
               ["\"", "\\"].contains(rest[rest.index(after: index)]) {
                index = rest.index(after: index)
                result.append(rest[index])
            } else if character == "\"" {
                rest = rest[rest.index(after: index)...]
                guard rest.isEmpty || rest.first == ";" else { throw .textAfterQuote(argument) }
                return result
            } else {
                result.append(character)
            }
            index = rest.index(after: index)
        }
        throw .unterminatedQuote(argument)
    }
}
