import Multipart
import UploadModel

/// A complete upload request, checked and ready to send or print: method, target, every header
/// in wire order (`Content-Type` and `Content-Length` included) and the prepared body.
public struct RequestMessage: Sendable {
    /// The HTTP method.
    public var method: String
    /// The checked URL.
    public var target: UploadTarget
    /// The headers, in wire order.
    public var headers: [HeaderField]
    /// The body (for a form, `MultipartBody.requestBody`).
    public var body: RequestBody

    /// The request line and headers as HTTP/1.1 text, ending with the blank line.
    public var head: String {
        var text = "\(method) \(target.requestTarget) HTTP/1.1\r\n"
        for header in headers {
            text += "\(header.name): \(header.value)\r\n"
        }
        return text + "\r\n"
    }
}
