/// A proxy's answer to `CONNECT`, read from the bytes it sent: the status line of its head.
/// Pure, so every shape of answer is tested without a socket.
struct ProxyConnectAnswer: Sendable, Hashable {
    /// Why bytes cannot be a proxy's answer.
    enum Malformed: Error, Sendable, Hashable {
        /// The bytes do not begin with an HTTP/1 status line.
        case notHTTP
        /// The head grew past `maximumHeadBytes` without ending.
        case tooLong
    }

    /// The status code.
    let status: Int
    /// The reason phrase, reduced to printable ASCII (at most 60 characters), for error texts.
    let reasonPhrase: String
    /// How many bytes the head took, its empty line included: what follows belongs to the tunnel.
    let headLength: Int

    /// The most bytes an answer's head may take.
    static let maximumHeadBytes = 16 * 1024

    /// Whether the proxy opened the tunnel (any 2xx).
    var isEstablished: Bool { (200...299).contains(status) }

    /// Reads an answer from the bytes received so far.
    ///
    /// - Parameter bytes: Everything the proxy sent so far.
    /// - Returns: The answer, or nil while its head is incomplete.
    /// - Throws: `Malformed` when the bytes are not an HTTP/1 answer.
    static func parse(_ bytes: [UInt8]) throws(Malformed) -> ProxyConnectAnswer? {
        let prefix = Array("HTTP/1.".utf8)
        guard bytes.starts(with: prefix.prefix(bytes.count)) else { throw .notHTTP }
        guard let end = headEnd(in: bytes) else {
            if bytes.count > maximumHeadBytes { throw .tooLong }
            return nil
        }
        let lineEnd = bytes[..<end].firstIndex { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") } ?? end
        let line = String(decoding: bytes[..<lineEnd], as: UTF8.self)
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count >= 2, words[1].count == 3, words[1].allSatisfy(\.isASCII), let status = Int(words[1]),
              (100...599).contains(status) else { throw .notHTTP }
        let printable = words.count > 2 ? words[2].unicodeScalars.filter { (0x20...0x7E).contains($0.value) } : []
        let reason = String(String.UnicodeScalarView(printable.prefix(60))).split(separator: " ").joined(separator: " ")
        return ProxyConnectAnswer(status: status, reasonPhrase: reason, headLength: end)
    }

    /// The index after the head's empty line (`CRLF CRLF`, or `LF LF` as lenient servers end it).
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"), bytes[index + 2] == UInt8(ascii: "\n") {
                    return index + 3
                }
            }
            index += 1
        }
        return nil
    }
}
