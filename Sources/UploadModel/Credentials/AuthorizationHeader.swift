import FoundationEssentials
import Multipart

/// The `Authorization` header curl's credential options send: `-u user:password` (Basic, RFC
/// 7617) and `--oauth2-bearer TOKEN` (Bearer, RFC 6750).
public enum AuthorizationHeader {
    /// The header's name.
    public static let name = "Authorization"

    /// Basic credentials: `Basic` and the Base64 of `user:password` in UTF-8.
    ///
    /// - Parameter userAndPassword: `user:password`, split at the first colon (a password may
    ///   hold colons; a user name may not).
    /// - Returns: The header, or nil when there is no colon (curl would prompt for the password;
    ///   Ferry does not).
    public static func basic(_ userAndPassword: String) -> HeaderField? {
        guard userAndPassword.contains(":") else { return nil }
        return HeaderField(name: name, value: "Basic " + Data(userAndPassword.utf8).base64EncodedString())
    }

    /// Bearer credentials: `Bearer TOKEN`.
    ///
    /// - Parameter token: The token, as given.
    /// - Returns: The header.
    public static func bearer(_ token: String) -> HeaderField {
        HeaderField(name: name, value: "Bearer " + token)
    }
}
