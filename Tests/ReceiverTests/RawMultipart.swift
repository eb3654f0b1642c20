/// Hand-made multipart bodies and requests for the raw-socket tests, including broken ones.
enum RawMultipart {
    /// The boundary used by every hand-made body.
    static let boundary = "ferry-test-boundary-7c1e"

    /// One part: raw header lines (without CRLF) and content.
    struct Part {
        var headers: [String]
        var content: [UInt8]

        /// A text field.
        static func field(_ name: String, _ value: String) -> Part {
            Part(headers: ["Content-Disposition: form-data; name=\"\(name)\""], content: Array(value.utf8))
        }

        /// A file part; `filename` is put between the quotes as given (no escaping).
        static func file(_ name: String, filename: String, _ content: [UInt8], type: String = "application/octet-stream") -> Part {
            Part(
                headers: ["Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"", "Content-Type: \(type)"],
                content: content
            )
        }
    }

    /// A body with the given parts; `closed: false` leaves out the closing boundary.
    ///
    /// - Parameters:
    ///   - parts: The parts.
    ///   - closed: Whether to end with `--boundary--`.
    /// - Returns: The body bytes.
    static func body(_ parts: [Part], closed: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = []
        for part in parts {
            bytes += Array("--\(boundary)\r\n".utf8)
            for header in part.headers { bytes += Array("\(header)\r\n".utf8) }
            bytes += Array("\r\n".utf8)
            bytes += part.content
            bytes += Array("\r\n".utf8)
        }
        if closed { bytes += Array("--\(boundary)--\r\n".utf8) }
        return bytes
    }

    /// A request head for `POST path` with a multipart body of `length` bytes.
    ///
    /// - Parameters:
    ///   - path: The request path.
    ///   - length: The `Content-Length` to announce, or `nil` for chunked transfer encoding.
    ///   - contentType: The `Content-Type`; the default is multipart with ``boundary``.
    ///   - extraHeaders: More header lines.
    /// - Returns: The head, ending with the blank line.
    static func head(
        path: String = "/upload",
        length: Int?,
        contentType: String = "multipart/form-data; boundary=\(boundary)",
        extraHeaders: [String] = []
    ) -> String {
        var lines = ["POST \(path) HTTP/1.1", "Host: 127.0.0.1", "Content-Type: \(contentType)"]
        if let length {
            lines.append("Content-Length: \(length)")
        } else {
            lines.append("Transfer-Encoding: chunked")
        }
        lines += extraHeaders
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// A whole request: head plus body with a matching `Content-Length`.
    static func request(path: String = "/upload", body: [UInt8]) -> [UInt8] {
        Array(head(path: path, length: body.count).utf8) + body
    }
}
