import Crypto
import FoundationEssentials

/// Checks a request's `Authorization` header against the receiver's token.
///
/// Accepted: `Bearer TOKEN`, and `Basic base64(user:TOKEN)` with any user name, for clients
/// that only speak Basic (browsers, `curl -u`). The comparison takes the same time whatever the
/// offered value: both sides are hashed with SHA-256 and the digests compared byte for byte with
/// no early exit, so neither the token's bytes nor its length leak through timing.
struct AccessCheck: Sendable {
    /// The challenge sent with every 401, one `WWW-Authenticate` field per scheme.
    static let challenges = [#"Bearer realm="ferry serve""#, #"Basic realm="ferry serve", charset="UTF-8""#]

    private let tokenDigest: [UInt8]

    /// Creates a check for `token`.
    ///
    /// - Parameter token: The secret clients must present.
    init(token: String) {
        tokenDigest = Array(SHA256.hash(data: Array(token.utf8)))
    }

    /// Whether an `Authorization` header value carries the token.
    ///
    /// - Parameter authorization: The header's value, or `nil` when the request has none.
    /// - Returns: `true` when the request may be served.
    func allows(authorization: String?) -> Bool {
        guard let authorization, let offered = Self.offeredSecret(authorization) else { return false }
        let digest = Array(SHA256.hash(data: offered))
        var difference: UInt8 = 0
        for (one, other) in zip(digest, tokenDigest) { difference |= one ^ other }
        return difference == 0
    }

    /// The secret an `Authorization` value offers: a Bearer token, or a Basic password.
    private static func offeredSecret(_ authorization: String) -> [UInt8]? {
        let trimmed = authorization.drop { $0 == " " }
        guard let space = trimmed.firstIndex(of: " ") else { return nil }
        let scheme = trimmed[..<space].lowercased()
        let credentials = trimmed[space...].drop { $0 == " " }
        switch scheme {
        case "bearer":
            return Array(credentials.utf8)
        case "basic":
            guard let decoded = Data(base64Encoded: String(credentials)), let colon = decoded.firstIndex(of: UInt8(ascii: ":"))
            else { return nil }
            return Array(decoded[decoded.index(after: colon)...])
        default:
            return nil
        }
    }
}
