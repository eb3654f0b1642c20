import Multipart

/// A named endpoint from `profiles.toml`: where uploads go and how, the values the Form and
/// `ferry send`'s options hold. A value left `nil` is one the profile does not set (the
/// command line's or the Form's default applies).
///
/// Secret values are never held literally in the file: a header value, the URL or the proxy may
/// name environment variables as `${NAME}`, which ``expanded(environment:)`` replaces.
public struct EndpointProfile: Hashable, Sendable {
    /// The keys a profile may set in `profiles.toml`: `ferry send`'s long options.
    public static let keys = [
        "url", "method", "field", "protocol", "bundle", "parameters", "headers", "concurrency", "retry", "timeout",
        "insecure", "cacert", "capath", "cert", "key", "proxy", "noproxy", "location", "http2", "resumable",
        "idempotency-key", "idempotent",
    ]

    /// The profile's name (its table under `[profiles]`).
    public var name: String
    /// The URL uploads go to.
    public var url: String?
    /// The HTTP method.
    public var method: String?
    /// The field name files are sent under.
    public var field: String?
    /// Whether files go up with tus (`protocol = "tus"`) instead of `multipart/form-data`.
    public var usesTus: Bool?
    /// Whether all files go in one request (`ferry send --bundle`; the Form's Mode).
    public var bundle: Bool?
    /// Text parameters sent with every request, in order (`"name=value"`, taken as it is).
    public var parameters: [FormTextField]
    /// Request headers, in order (`"Name: value"`).
    public var headers: [HeaderField]
    /// Uploads running at once.
    public var concurrency: Int?
    /// Automatic retries of a failed upload.
    public var retries: Int?
    /// Seconds without progress before an upload is abandoned (`ferry send --timeout`).
    public var timeout: Double?
    /// `--insecure`: whether https certificates go unverified.
    public var insecure: Bool?
    /// `--cacert`.
    public var certificateAuthorityFile: String?
    /// `--capath`.
    public var certificateAuthorityDirectory: String?
    /// `--cert`.
    public var clientCertificateFile: String?
    /// `--key`.
    public var clientKeyFile: String?
    /// `--proxy`.
    public var proxy: String?
    /// `--noproxy`: hosts reached without the proxy, comma-separated.
    public var noProxy: String?
    /// `--location`: whether 307 and 308 redirects are followed.
    public var followsRedirects: Bool?
    /// `--http2`: whether HTTP/2 is offered.
    public var offersHTTP2: Bool?
    /// `--resumable`: whether requests go as resumable uploads.
    public var resumesUploads: Bool?
    /// `idempotency-key` (`--no-idempotency-key` when false): whether uploads carry their own key.
    public var sendsIdempotencyKey: Bool?
    /// `idempotent` (`--idempotent`): whether the server honours `Idempotency-Key`.
    public var endpointHonoursIdempotencyKeys: Bool?

    /// Creates a profile that sets nothing but its name.
    ///
    /// - Parameter name: The name.
    public init(name: String) {
        self.name = name
        self.parameters = []
        self.headers = []
    }

    /// The profile with every `${NAME}` in its URL, proxy and header values replaced by the
    /// environment variable's value.
    ///
    /// - Parameter environment: The process's environment.
    /// - Returns: The profile as requests use it.
    /// - Throws: ``ProfileError`` naming the variable, the profile and the key when a variable
    ///   is not set, or a `${` is not closed.
    public func expanded(environment: [String: String]) throws(ProfileError) -> EndpointProfile {
        var profile = self
        func expand(_ text: String, key: String) throws(ProfileError) -> String {
            do {
                return try EnvironmentReference.expand(text, environment: environment)
            } catch {
                switch error {
                case .notSet(let variable): throw .missingVariable(variable, profile: name, key: key)
                case .unclosed: throw .unusableValue(file: nil, profile: name, key: key, reason: "a ${ is not closed with }")
                }
            }
        }
        if let url { profile.url = try expand(url, key: "url") }
        if let proxy { profile.proxy = try expand(proxy, key: "proxy") }
        for index in headers.indices {
            profile.headers[index].value = try expand(headers[index].value, key: "headers (\(headers[index].name))")
        }
        return profile
    }
}
