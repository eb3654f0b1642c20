import Multipart
import UploadModel

/// The header lines of an upload request, in the order they are sent.
///
/// Ferry sends `Host`, `User-Agent: ferry/VERSION` and `Accept: */*` unless the user's headers
/// replace them (matched case-insensitively, as curl's `-H` does; an empty value removes the
/// header), then the user's other headers (and Basic `Authorization` for a URL's credentials
/// when no header sets one), then `Content-Type` with the boundary and the exact
/// `Content-Length`, which the user cannot override.
public enum RequestHeaders {
    /// The `User-Agent` Ferry sends: `ferry/` and the release (`FerryRelease`).
    public static let userAgent = "ferry/" + FerryRelease.version

    /// Builds the header list.
    ///
    /// - Parameters:
    ///   - target: The checked URL.
    ///   - userHeaders: Headers from `-H` or the form.
    ///   - contentType: The body's content type, with its boundary.
    ///   - contentLength: The body's exact length.
    /// - Returns: The headers in wire order.
    /// - Throws: `RequestHeadersError` for a header that is malformed or that Ferry must set itself.
    public static func build(
        target: UploadTarget,
        userHeaders: [HeaderField],
        contentType: String,
        contentLength: Int64
    ) throws(RequestHeadersError) -> [HeaderField] {
        for header in userHeaders { try check(header) }
        var defaults = [
            HeaderField(name: "Host", value: target.hostHeader),
            HeaderField(name: "User-Agent", value: userAgent),
            HeaderField(name: "Accept", value: "*/*"),
        ]
        var extra: [HeaderField] = []
        for header in userHeaders {
            if let index = defaults.firstIndex(where: { HTTPToken.namesEqual($0.name, header.name) }) {
                defaults[index] = header
            } else {
                extra.append(header)
            }
        }
        if let credentials = target.basicCredentials, let authorization = AuthorizationHeader.basic(credentials),
           !userHeaders.contains(where: { HTTPToken.namesEqual($0.name, AuthorizationHeader.name) }) {
            extra.append(authorization)
        }
        let kept = (defaults + extra).filter { !$0.value.isEmpty }
        return kept + [
            HeaderField(name: "Content-Type", value: contentType),
            HeaderField(name: "Content-Length", value: String(contentLength)),
        ]
    }

    /// Checks one user header.
    ///
    /// - Parameter header: The header.
    /// - Throws: `RequestHeadersError` when the name is not a token, the value holds a line
    ///   break or NUL, or the header is one Ferry sets itself.
    public static func check(_ header: HeaderField) throws(RequestHeadersError) {
        guard HTTPToken.isToken(header.name) else { throw .badName(header.name) }
        guard !header.value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) else {
            throw .badValue(header.name)
        }
        let reserved = ["content-type", "content-length", "transfer-encoding"]
        guard !reserved.contains(header.name.lowercased()) else { throw .reserved(header.name) }
    }
}
