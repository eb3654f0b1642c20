import FoundationEssentials
import Hummingbird

/// Builds the JSON responses and log lines of the receiver, with stable key order.
enum JSONBody {
    /// Encodes `value` as compact JSON with sorted keys and unescaped slashes.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The UTF-8 JSON text.
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A response with a JSON body.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - value: The body value.
    /// - Returns: The response; statuses that forbid a body (204, 304) get none.
    static func response(status: Int, _ value: some Encodable) -> Response {
        let status = HTTPResponse.Status(code: status)
        if status.code == 204 || status.code == 304 {
            return Response(status: status)
        }
        let text = encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n"))
        )
    }

    /// A `{"error": "..."}` response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - message: What went wrong.
    /// - Returns: The response.
    static func error(status: Int, _ message: String) -> Response {
        response(status: status, ["error": message])
    }
}
