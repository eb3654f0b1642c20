import ArgumentParser
import FoundationEssentials
import Glibc
import UploadModel
import UploadProtocols

/// How requests reach the server, with curl's options: trust, client certificate, proxy,
/// redirects, HTTP version. `ferry` and `ferry send` share them (through `FormOptions`).
struct ConnectionArguments: ParsableArguments {
    @Flag(name: [.customShort("k"), .customLong("insecure")], inversion: .prefixedNo,
          help: "Do not verify https:// certificates, for a test server (--no-insecure: verify, whatever a profile says).")
    var insecureChoice: Bool?

    @Option(name: .long, help: ArgumentHelp(
        "Trust the certificate authorities in this PEM file instead of the system's (also CURL_CA_BUNDLE, SSL_CERT_FILE).",
        valueName: "file"))
    var cacert: String?

    @Option(name: .long, help: ArgumentHelp(
        "Trust the PEM certificate authorities in this directory instead of the system's (also SSL_CERT_DIR).",
        valueName: "dir"))
    var capath: String?

    @Option(name: .customLong("cert"), help: ArgumentHelp("A PEM client certificate for mutual TLS.", valueName: "file"))
    var clientCertificate: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("The client certificate's PEM private key.", valueName: "file"))
    var clientKey: String?

    @Option(name: [.customShort("x"), .long], help: ArgumentHelp(
        "Use this proxy, http://[user:password@]host:port (also http_proxy, https_proxy, all_proxy).",
        valueName: "url"))
    var proxy: String?

    @Option(name: .long, help: ArgumentHelp(
        "Hosts to reach without the proxy, comma-separated; '*' for all (also no_proxy).", valueName: "list"))
    var noproxy: String?

    @Flag(name: [.customShort("L"), .customLong("location")], inversion: .prefixedNo,
          help: "Follow 307 and 308 redirects, sending the whole request again (--no-location: do not, whatever a profile says).")
    var locationChoice: Bool?

    @Flag(exclusivity: .chooseLast)
    var httpVersion: HTTPVersionFlag?

    @Flag(name: .customLong("resumable"), inversion: .prefixedNo, help: """
        Send each upload of files over 64 KiB as a resumable upload (the IETF draft Apple's URLSession \
        speaks; on by default): where the server supports it, a connection lost mid-body goes on from what \
        the server has (--no-resumable: do not, whatever a profile says).
        """)
    var resumableChoice: Bool?

    @Flag(name: .customLong("idempotency-key"), inversion: .prefixedNo, help: """
        Send each upload with its own Idempotency-Key, the same on every attempt (on by default; \
        --no-idempotency-key: send none).
        """)
    var idempotencyKeyChoice: Bool?

    @Flag(name: .customLong("idempotent"), inversion: .prefixedNo, help: """
        The server honours Idempotency-Key (stores a repeat once): an upload whose answer was lost is sent \
        again by itself instead of "may have arrived". A server that names the key back in its answer, as \
        ferry serve does, is taken as honouring keys without this.
        """)
    var idempotentChoice: Bool?

    mutating func validate() throws {
        // A --proxy that cannot be used is refused before anything is queued, in the words the
        // engine would use (one from the environment fails the jobs it applies to).
        if let proxy {
            do {
                _ = try ProxyServer(url: proxy)
            } catch {
                throw ValidationError(error.description)
            }
        }
        if clientKey != nil, clientCertificate == nil {
            throw ValidationError("--key needs --cert: give the client certificate too")
        }
    }

    /// Whether certificates go unverified (`-k`, else the profile's `insecure`).
    var insecure: Bool { insecureChoice ?? false }
    /// Whether 307 and 308 redirects are followed (`-L`, else the profile's `location`).
    var location: Bool { locationChoice ?? false }
    /// Whether requests go as resumable uploads (`--resumable`, else the profile's `resumable`;
    /// on by default).
    var resumable: Bool { resumableChoice ?? true }

    /// Whether any of these options was given.
    var anyGiven: Bool {
        insecureChoice != nil || cacert != nil || capath != nil || clientCertificate != nil || clientKey != nil || proxy != nil
            || noproxy != nil || locationChoice != nil || httpVersion != nil || resumableChoice != nil
            || idempotencyKeyChoice != nil || idempotentChoice != nil
    }

    /// The options these arguments give, over what the environment sets as curl reads it (an
    /// option given wins over its variable).
    ///
    /// - Parameter environment: The process's environment.
    /// - Returns: The options.
    func options(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConnectionOptions {
        var options = ConnectionOptions(environment: environment)
        options.verifiesCertificates = !insecure
        if let cacert { options.certificateAuthorityFile = cacert }
        if let capath { options.certificateAuthorityDirectory = capath }
        options.clientCertificateFile = clientCertificate
        options.clientKeyFile = clientKey
        if let proxy {
            options.httpProxy = proxy
            options.httpsProxy = proxy
        }
        if let noproxy { options.noProxy = ConnectionOptions.hostList(noproxy) }
        options.followsRedirects = location
        options.offersHTTP2 = httpVersion == .http2
        options.resumesUploads = resumable
        options.sendsIdempotencyKey = idempotencyKeyChoice ?? true
        options.endpointHonoursIdempotencyKeys = idempotentChoice ?? false
        return options
    }
}
