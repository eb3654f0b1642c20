import Foundation
import TestSupport

/// Hand-made tus requests over ``RawHTTPConnection``: one connection per request, the bytes
/// exactly as written here (headers missing, wrong or extra on purpose), the answer's headers
/// by lowercased name.
struct TusWire: Sendable {
    /// One answer.
    struct Reply: Sendable {
        /// The status code (0: no answer).
        let status: Int
        /// The header fields, names lowercased.
        let headers: [String: String]
        /// The body.
        let body: String

        /// A header's value, by any case of its name.
        subscript(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// The receiver's port.
    let port: Int
    /// Sent as `Authorization: Bearer TOKEN` when set.
    var token: String?

    /// The `Upload-Metadata` for `pairs` (values Base64, a `nil` value sends the key alone).
    static func metadata(_ pairs: [(String, String?)]) -> String {
        pairs.map { key, value in value.map { "\(key) \(Data($0.utf8).base64EncodedString())" } ?? key }.joined(separator: ",")
    }

    /// Sends one request and reads its answer.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The target.
    ///   - headers: Header fields (`Tus-Resumable: 1.0.0` is added unless `resumable` is false).
    ///   - body: The body; `Content-Length` is its size unless `contentLength` says otherwise.
    ///   - contentLength: A `Content-Length` to announce instead.
    ///   - resumable: Whether to send `Tus-Resumable: 1.0.0`.
    /// - Returns: The answer.
    func send(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [], contentLength: Int? = nil,
        resumable: Bool = true
    ) async throws -> Reply {
        let connection = try await RawHTTPConnection.connect(
            port: port, sending: request(method, path, headers: headers, body: body, contentLength: contentLength, resumable: resumable))
        defer { connection.close() }
        // A minute for the answer: a loaded run may keep the receiver from answering for a while.
        guard let response = try await connection.readResponse(timeout: 60) else { return Reply(status: 0, headers: [:], body: "") }
        return Self.reply(response)
    }

    /// The bytes of a request.
    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [], contentLength: Int? = nil,
        resumable: Bool = true
    ) -> [UInt8] {
        Self.request(method, path, headers: headers + (token.map { [("Authorization", "Bearer \($0)")] } ?? []), body: body,
            contentLength: contentLength, resumable: resumable)
    }

    private static func request(
        _ method: String, _ path: String, headers: [(String, String)], body: [UInt8], contentLength: Int?, resumable: Bool
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if resumable { head += "Tus-Resumable: 1.0.0\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if method != "HEAD" && method != "OPTIONS" { head += "Content-Length: \(contentLength ?? body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// Parses a raw answer's head.
    static func reply(_ response: RawHTTPConnection.Response) -> Reply {
        var headers: [String: String] = [:]
        for line in response.head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return Reply(status: response.status, headers: headers, body: response.body)
    }

    /// Creates an upload and returns its path (`/files/ID`).
    func create(length: Int, metadata: String? = nil) async throws -> String {
        var headers = [("Upload-Length", String(length))]
        if let metadata { headers.append(("Upload-Metadata", metadata)) }
        let reply = try await send("POST", "/files/", headers: headers)
        guard reply.status == 201, let location = reply["Location"] else {
            throw TestFailure("creation answered \(reply.status): \(reply.body)")
        }
        return location
    }

    /// PATCHes `bytes` at `offset`.
    func patch(_ path: String, offset: Int, _ bytes: [UInt8], headers: [(String, String)] = []) async throws -> Reply {
        try await send(
            "PATCH", path,
            headers: [("Content-Type", "application/offset+octet-stream"), ("Upload-Offset", String(offset))] + headers, body: bytes)
    }
}
