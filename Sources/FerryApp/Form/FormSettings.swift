import UploadModel

/// What the form says about requests: the part of the form saved in the journal.
public struct FormSettings: Hashable, Sendable, Codable {
    /// The URL uploads go to.
    public var url: String
    /// The HTTP method (`POST`, `PUT`, `PATCH`).
    public var method: String
    /// The field name files are sent under.
    public var fileField: String
    /// One request per file, or all in one.
    public var mode: UploadMode
    /// Whether files go up with tus (resumable; the URL is the creation URL, the parameters its
    /// metadata, one upload per file whatever `mode` says) instead of `multipart/form-data`.
    public var usesTus: Bool
    /// Uploads running at once.
    public var concurrency: Int
    /// Automatic retries of a failed upload.
    public var retries: Int
    /// Text parameters sent with every request.
    public var parameters: [FormRow]
    /// Request headers.
    public var headers: [FormRow]
    /// Whether secret header values (`Authorization`, tokens: ``FormRow/isSecretHeader``) are
    /// saved with the form for the next start; by default they are forgotten.
    public var remembersSecrets: Bool
    /// How requests reach the server: trust, client certificate, proxy, redirects.
    public var connection: ConnectionOptions
    /// The endpoint (`scheme://host:port`) a secret header was given for at its 401 prompt, by
    /// the header's lowercased name: that header goes only to that endpoint, never to a URL of
    /// another origin typed later.
    public var credentialEndpoints: [String: String] = [:]

    /// The headers a request to `url` carries: every row but a secret one given for another
    /// endpoint (``credentialEndpoints``).
    ///
    /// - Parameter url: The request's URL.
    /// - Returns: The headers, in order.
    public func headers(for url: String) -> [FormRow] {
        guard !credentialEndpoints.isEmpty else { return headers }
        let endpoint = UploadEndpoint(url: url)?.description
        return headers.filter { header in
            credentialEndpoints[header.name.lowercased()].map { $0 == endpoint } ?? true
        }
    }

    /// The settings as saved in the journal: secret headers and the proxy's password left out
    /// unless remembered.
    public var savable: FormSettings {
        guard !remembersSecrets else { return self }
        var saved = self
        saved.headers.removeAll(where: \.isSecretHeader)
        saved.credentialEndpoints = [:]
        saved.connection.httpProxy = connection.httpProxy?.replacingURLPassword(with: nil)
        saved.connection.httpsProxy = connection.httpsProxy?.replacingURLPassword(with: nil)
        return saved
    }

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - method: The HTTP method.
    ///   - fileField: The file field name.
    ///   - mode: One request per file, or all in one.
    ///   - concurrency: Uploads at once.
    ///   - retries: Automatic retries.
    ///   - parameters: Text parameters.
    ///   - headers: Request headers.
    ///   - remembersSecrets: Whether secret header values are saved for the next start.
    ///   - connection: How requests reach the server.
    public init(url: String = "", method: String = "POST", fileField: String = "file", mode: UploadMode = .perFile,
                concurrency: Int = 4, retries: Int = 3, parameters: [FormRow] = [], headers: [FormRow] = [],
                remembersSecrets: Bool = false, connection: ConnectionOptions = ConnectionOptions(), usesTus: Bool = false) {
        self.url = url
        self.method = method
        self.fileField = fileField
        self.mode = mode
        self.concurrency = concurrency
        self.retries = retries
        self.parameters = parameters
        self.headers = headers
        self.remembersSecrets = remembersSecrets
        self.connection = connection
        self.usesTus = usesTus
    }

    private enum CodingKeys: String, CodingKey {
        case url, method, fileField, mode, concurrency, retries, parameters, headers, remembersSecrets, connection, usesTus
        case credentialEndpoints
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(String.self, forKey: .url),
            method: try container.decode(String.self, forKey: .method),
            fileField: try container.decode(String.self, forKey: .fileField),
            mode: try container.decode(UploadMode.self, forKey: .mode),
            concurrency: try container.decode(Int.self, forKey: .concurrency),
            retries: try container.decode(Int.self, forKey: .retries),
            parameters: try container.decode([FormRow].self, forKey: .parameters),
            headers: try container.decode([FormRow].self, forKey: .headers),
            // Saved before the setting existed: nobody asked to remember, so the next save forgets.
            remembersSecrets: try container.decodeIfPresent(Bool.self, forKey: .remembersSecrets) ?? false,
            connection: try container.decodeIfPresent(ConnectionOptions.self, forKey: .connection) ?? ConnectionOptions(),
            usesTus: try container.decodeIfPresent(Bool.self, forKey: .usesTus) ?? false
        )
        credentialEndpoints = try container.decodeIfPresent([String: String].self, forKey: .credentialEndpoints) ?? [:]
    }
}
