extension EndpointProfile {
    /// The profile as `profiles.toml` holds it: each secret header value
    /// (``NameValuePair/isSecretHeader``, the one decision `CurlCommand` masks by too) and the
    /// password of the URL or the proxy replaced by a `${NAME}` reference to an environment
    /// variable (``EnvironmentReference/variableName(profile:key:)``); a value that already
    /// names a variable stays as it is.
    ///
    /// - Returns: The profile to write, and the variables it names for secrets it left out (to
    ///   tell the user which to set).
    public func withoutSecrets() -> (profile: EndpointProfile, variables: [String]) {
        var saved = self
        var variables: [String] = []
        func reference(_ key: String) -> String {
            let variable = EnvironmentReference.variableName(profile: name, key: key)
            variables.append(variable)
            return "${\(variable)}"
        }
        for index in headers.indices where headers[index].isSecretHeader && !EnvironmentReference.isReference(headers[index].value) {
            saved.headers[index].value = reference(headers[index].name)
        }
        func password(of url: String?, key: String) -> String? {
            guard let url else { return nil }
            let marked = url.replacingURLPassword(with: "\u{0}")
            guard marked != url, !EnvironmentReference.isReference(url) else { return url }
            return url.replacingURLPassword(with: reference(key))
        }
        saved.url = password(of: url, key: "URL_PASSWORD")
        saved.proxy = password(of: proxy, key: "PROXY_PASSWORD")
        return (saved, variables)
    }
}
