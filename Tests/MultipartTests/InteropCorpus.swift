import Crypto
import Foundation
import Multipart
import TestSupport

/// Tricky names and contents that independent parsers must read back exactly.
enum InteropCorpus {
    /// One part of the corpus and what a parser must report for it.
    struct Expected: Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        var sha256: String
        var size: Int
    }

    static let names = [
        "plain", "with space", "quote\"inside", "semi;colon", "back\\slash", "per%cent", "-leading-dash",
        "--looks-like-a-boundary", "é", "日本", "emoji 🚀✨", "equals=sign", "line\nbreak",
    ]

    static let contents: [[UInt8]] = [
        [],
        Array(0...255) + Array(0...255).reversed(),
        Array("first\r\n--ferry-fake\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n--\r\n--ferry-fake--\r\n".utf8),
        Array("--".utf8),
        Array("ends with CRLF\r\n".utf8),
        pseudoRandomBytes(count: 200_003, seed: 77),
    ]

    /// Writes the corpus files and returns the form plus what each part must parse back as.
    static func form(in dir: TemporaryDirectory) throws -> (MultipartForm, [Expected]) {
        var form = MultipartForm()
        var expected: [Expected] = []
        for (index, name) in names.enumerated() {
            let value = "value of \(name)\nsecond line"
            form.addText(name: name, value: value)
            let sent = Array(value.utf8)
            expected.append(Expected(name: whatwgEscapedName(name), filename: nil, contentType: nil,
                                     sha256: sha256(sent), size: sent.count))
            let content = contents[index % contents.count]
            let filename = "\(name) file.txt"
            let path = try dir.write("file-\(index).bin", content)
            form.addFile(name: name, path: path, filename: filename)
            expected.append(Expected(name: whatwgEscapedName(name), filename: whatwgEscapedFilename(filename),
                                     contentType: "text/plain", sha256: sha256(content), size: content.count))
        }
        for (index, content) in contents.enumerated() {
            form.parts.append(.file(name: "memory", filename: "m\(index).png", bytes: content))
            expected.append(Expected(name: "memory", filename: "m\(index).png", contentType: "image/png",
                                     sha256: sha256(content), size: content.count))
        }
        return (form, expected)
    }

    /// What the WHATWG algorithm sends for a field name: line breaks to CRLF, then `"` CR LF escaped.
    static func whatwgEscapedName(_ name: String) -> String {
        whatwgEscapedFilename(name.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .replacingOccurrences(of: "\n", with: "\r\n"))
    }

    /// What the WHATWG algorithm sends for a filename: `"` CR LF escaped.
    static func whatwgEscapedFilename(_ filename: String) -> String {
        filename.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
