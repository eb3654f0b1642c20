/// How a job's requests reach the server, in curl's terms: which certificates are trusted, the
/// client certificate, the proxy, whether redirects are followed and which HTTP version is
/// offered. Part of a job's spec (and so of the journal), so a restored job goes the same way;
/// the transport pools connections per endpoint *and* options.
///
/// The command line (`ferry send`, `ferry`) and the interface's form fill it from curl's
/// options and the environment as curl reads it (`init(environment:)`), once, when jobs are
/// queued.
public struct ConnectionOptions: Sendable, Hashable, Codable {
    /// Whether `https://` certificates are verified (`-k/--insecure` turns this off).
    public var verifiesCertificates: Bool
    /// A PEM file of certificate authorities to trust instead of the system's (`--cacert`,
    /// `CURL_CA_BUNDLE`, `SSL_CERT_FILE`).
    public var certificateAuthorityFile: String?
    /// A directory of PEM certificate authorities to trust instead of the system's
    /// (`--capath`, `SSL_CERT_DIR`).
    public var certificateAuthorityDirectory: String?
    /// A PEM client certificate for mutual TLS (`--cert`); may hold the key too.
    public var clientCertificateFile: String?
    /// The PEM private key of the client certificate (`--key`); nil when `--cert` holds it.
    public var clientKeyFile: String?
    /// The proxy for `http://` targets (`--proxy`, `http_proxy`, `all_proxy`), as a URL.
    public var httpProxy: String?
    /// The proxy for `https://` targets (`--proxy`, `https_proxy`, `all_proxy`), as a URL;
    /// reached with `CONNECT`.
    public var httpsProxy: String?
    /// Hosts reached without a proxy (`--noproxy`, `no_proxy`): host names, domain suffixes or `*`.
    public var noProxy: [String]
    /// Whether 307 and 308 are followed (`-L/--location`).
    public var followsRedirects: Bool
    /// Whether HTTP/2 is offered over TLS (`--http2`), so the server may choose it; otherwise
    /// (`--http1.1`, the default) every request goes over HTTP/1.1. Uploads default to HTTP/1.1
    /// because servers open an HTTP/2 stream's window a little at a time (nginx 64 KiB a round
    /// trip), which caps a large body's throughput at that much per round trip, and because NIO's
    /// HTTP/2 costs Ferry more CPU per small file than HTTP/1.1 connections do (ARCHITECTURE.md).
    public var offersHTTP2: Bool
    /// Whether a request is sent as a resumable upload (`draft-ietf-httpbis-resumable-upload`;
    /// on unless `--no-resumable`, for jobs over ``ResumableUploadFields/smallestResumableBody``,
    /// ``UploadJobSpec/sendsResumably``): where the server supports it, a connection lost
    /// mid-body goes on from the server's offset instead of failing (`ResumableUploadStateMachine`).
    public var resumesUploads: Bool
    /// Whether a form request carries the job's `Idempotency-Key` (``IdempotencyKey``; on unless
    /// `--no-idempotency-key`): a server that honours keys stores a repeat once.
    public var sendsIdempotencyKey: Bool
    /// Whether the endpoint is known to honour `Idempotency-Key` without having said so
    /// (`--idempotent`, a profile's `idempotent = true`): a job whose answer was lost after its
    /// whole body went out is sent again, with its key, instead of "may have arrived". An
    /// endpoint that names the key back in an answer (`ferry serve` does) is taken as honouring
    /// keys without it.
    public var endpointHonoursIdempotencyKeys: Bool

    /// Curl's defaults: verify, the system's authorities, no client certificate, no proxy, no
    /// redirects.
    public init(
        verifiesCertificates: Bool = true,
        certificateAuthorityFile: String? = nil,
        certificateAuthorityDirectory: String? = nil,
        clientCertificateFile: String? = nil,
        clientKeyFile: String? = nil,
        httpProxy: String? = nil,
        httpsProxy: String? = nil,
        noProxy: [String] = [],
        followsRedirects: Bool = false,
        offersHTTP2: Bool = false,
        resumesUploads: Bool = true,
        sendsIdempotencyKey: Bool = true,
        endpointHonoursIdempotencyKeys: Bool = false
    ) {
        self.verifiesCertificates = verifiesCertificates
        self.certificateAuthorityFile = certificateAuthorityFile
        self.certificateAuthorityDirectory = certificateAuthorityDirectory
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
        self.followsRedirects = followsRedirects
        self.offersHTTP2 = offersHTTP2
        self.resumesUploads = resumesUploads
        self.sendsIdempotencyKey = sendsIdempotencyKey
        self.endpointHonoursIdempotencyKeys = endpointHonoursIdempotencyKeys
    }

    /// The defaults with what the environment sets, as curl reads it: `CURL_CA_BUNDLE`, then
    /// `SSL_CERT_FILE`; `SSL_CERT_DIR`; `http_proxy` (lowercase only, as curl: `HTTP_PROXY`
    /// may come from a CGI request), `https_proxy` or `HTTPS_PROXY`, `all_proxy` or `ALL_PROXY`
    /// for either; `no_proxy` or `NO_PROXY`. Empty values count as unset.
    ///
    /// - Parameter environment: The process's environment.
    public init(environment: [String: String]) {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        let anyProxy = value("all_proxy", "ALL_PROXY")
        self.init(
            certificateAuthorityFile: value("CURL_CA_BUNDLE", "SSL_CERT_FILE"),
            certificateAuthorityDirectory: value("SSL_CERT_DIR"),
            httpProxy: value("http_proxy") ?? anyProxy,
            httpsProxy: value("https_proxy", "HTTPS_PROXY") ?? anyProxy,
            noProxy: Self.hostList(value("no_proxy", "NO_PROXY") ?? "")
        )
    }

    /// These options with what they leave unset (authorities, proxies, the no-proxy list) taken
    /// from `defaults`: how a saved form meets the environment of a later start.
    ///
    /// - Parameter defaults: Options to fill from (usually `init(environment:)`).
    /// - Returns: The options.
    public func fillingUnset(from defaults: ConnectionOptions) -> ConnectionOptions {
        var options = self
        options.certificateAuthorityFile = certificateAuthorityFile ?? defaults.certificateAuthorityFile
        options.certificateAuthorityDirectory = certificateAuthorityDirectory ?? defaults.certificateAuthorityDirectory
        options.httpProxy = httpProxy ?? defaults.httpProxy
        options.httpsProxy = httpsProxy ?? defaults.httpsProxy
        if noProxy.isEmpty { options.noProxy = defaults.noProxy }
        return options
    }

    /// A host list (`no_proxy`, `--noproxy`) as its entries: separated by commas or spaces
    /// (a host name holds neither), empty ones dropped.
    ///
    /// - Parameter list: The list as written.
    /// - Returns: The entries.
    public static func hostList(_ list: String) -> [String] {
        list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
    }

    private enum CodingKeys: String, CodingKey {
        case verifiesCertificates, certificateAuthorityFile, certificateAuthorityDirectory, clientCertificateFile,
             clientKeyFile, httpProxy, httpsProxy, noProxy, followsRedirects, offersHTTP2, resumesUploads,
             sendsIdempotencyKey, endpointHonoursIdempotencyKeys
    }

    /// Decodes options; a key that is absent takes its default, so options saved by an earlier
    /// version still load.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            verifiesCertificates: try container.decodeIfPresent(Bool.self, forKey: .verifiesCertificates) ?? true,
            certificateAuthorityFile: try container.decodeIfPresent(String.self, forKey: .certificateAuthorityFile),
            certificateAuthorityDirectory: try container.decodeIfPresent(String.self, forKey: .certificateAuthorityDirectory),
            clientCertificateFile: try container.decodeIfPresent(String.self, forKey: .clientCertificateFile),
            clientKeyFile: try container.decodeIfPresent(String.self, forKey: .clientKeyFile),
            httpProxy: try container.decodeIfPresent(String.self, forKey: .httpProxy),
            httpsProxy: try container.decodeIfPresent(String.self, forKey: .httpsProxy),
            noProxy: try container.decodeIfPresent([String].self, forKey: .noProxy) ?? [],
            followsRedirects: try container.decodeIfPresent(Bool.self, forKey: .followsRedirects) ?? false,
            offersHTTP2: try container.decodeIfPresent(Bool.self, forKey: .offersHTTP2) ?? false,
            resumesUploads: try container.decodeIfPresent(Bool.self, forKey: .resumesUploads) ?? true,
            sendsIdempotencyKey: try container.decodeIfPresent(Bool.self, forKey: .sendsIdempotencyKey) ?? true,
            endpointHonoursIdempotencyKeys: try container.decodeIfPresent(Bool.self, forKey: .endpointHonoursIdempotencyKeys) ?? false
        )
    }
}
