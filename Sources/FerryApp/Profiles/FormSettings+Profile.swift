import UploadModel

extension FormSettings {
    /// The settings with a profile loaded: each value the profile sets replaces the form's, the
    /// parameters and headers become the profile's, and what the profile leaves unset stays.
    ///
    /// - Parameter profile: The profile, its `${NAME}` references expanded.
    /// - Returns: The settings.
    public func loading(_ profile: EndpointProfile) -> FormSettings {
        var settings = self
        settings.url = profile.url ?? url
        settings.method = profile.method ?? method
        settings.fileField = profile.field ?? fileField
        settings.usesTus = profile.usesTus ?? usesTus
        settings.mode = profile.bundle.map { $0 ? .bundle : .perFile } ?? mode
        settings.concurrency = profile.concurrency ?? concurrency
        settings.retries = profile.retries ?? retries
        settings.parameters = profile.parameters
        settings.headers = profile.headers
        // The profile's headers are its own, for its URL: none stays bound to a 401 prompt's endpoint.
        settings.credentialEndpoints = [:]
        var options = connection
        options.verifiesCertificates = profile.insecure.map { !$0 } ?? options.verifiesCertificates
        options.certificateAuthorityFile = profile.certificateAuthorityFile ?? options.certificateAuthorityFile
        options.certificateAuthorityDirectory = profile.certificateAuthorityDirectory ?? options.certificateAuthorityDirectory
        options.clientCertificateFile = profile.clientCertificateFile ?? options.clientCertificateFile
        options.clientKeyFile = profile.clientKeyFile ?? options.clientKeyFile
        if let proxy = profile.proxy {
            options.httpProxy = proxy
            options.httpsProxy = proxy
        }
        options.noProxy = profile.noProxy.map(ConnectionOptions.hostList) ?? options.noProxy
        options.followsRedirects = profile.followsRedirects ?? options.followsRedirects
        options.offersHTTP2 = profile.offersHTTP2 ?? options.offersHTTP2
        options.resumesUploads = profile.resumesUploads ?? options.resumesUploads
        options.sendsIdempotencyKey = profile.sendsIdempotencyKey ?? options.sendsIdempotencyKey
        options.endpointHonoursIdempotencyKeys = profile.endpointHonoursIdempotencyKeys ?? options.endpointHonoursIdempotencyKeys
        settings.connection = options
        return settings
    }

    /// The form as a profile of this name: every value it holds (``EndpointProfile/withoutSecrets()``
    /// leaves the secrets out when it is written).
    ///
    /// - Parameter name: The profile's name.
    /// - Returns: The profile.
    public func profile(named name: String) -> EndpointProfile {
        var profile = EndpointProfile(name: name)
        profile.url = url
        profile.method = method
        profile.field = fileField
        profile.usesTus = usesTus
        profile.bundle = mode == .bundle
        profile.parameters = parameters
        profile.headers = headers
        profile.concurrency = concurrency
        profile.retries = retries
        profile.insecure = !connection.verifiesCertificates
        profile.certificateAuthorityFile = connection.certificateAuthorityFile
        profile.certificateAuthorityDirectory = connection.certificateAuthorityDirectory
        profile.clientCertificateFile = connection.clientCertificateFile
        profile.clientKeyFile = connection.clientKeyFile
        profile.proxy = connection.httpsProxy ?? connection.httpProxy
        profile.noProxy = connection.noProxy.isEmpty ? nil : connection.noProxy.joined(separator: ",")
        profile.followsRedirects = connection.followsRedirects
        profile.offersHTTP2 = connection.offersHTTP2
        profile.resumesUploads = connection.resumesUploads
        // Written only where they differ from the defaults (keys sent, no honouring assumed).
        profile.sendsIdempotencyKey = connection.sendsIdempotencyKey ? nil : false
        profile.endpointHonoursIdempotencyKeys = connection.endpointHonoursIdempotencyKeys ? true : nil
        return profile
    }
}
