import ArgumentParser
import FerryConfig
import FoundationEssentials
import Glibc
import Multipart
import UploadModel

extension FormOptions {
    /// The profile `--profile` names, its `${NAME}` references expanded, or nil without `--profile`.
    ///
    /// - Parameter environment: The process's environment (where `profiles.toml` is, and the variables).
    /// - Returns: The profile.
    /// - Throws: `ValidationError` naming the file, the profile and the key, or the variable not set.
    func chosenProfile(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> EndpointProfile? {
        guard let profile else { return nil }
        do {
            return try ProfileStore(environment: environment).profile(named: profile).expanded(environment: environment)
        } catch {
            throw ValidationError("--profile \(profile): \(error.description)")
        }
    }

    /// Fills what the command line left unset from the `--profile`: URL, field, concurrency,
    /// retries, connection options; its parameters go before the command line's `-F` parts and
    /// its headers before the `-H` ones, each unless the command line gives one of that name
    /// (`-u` and `--oauth2-bearer` give `Authorization`). Flags (`-k`, `-L`) can only be turned
    /// on from the command line.
    ///
    /// - Throws: `ValidationError` when the profile cannot be used.
    mutating func applyProfile() throws {
        guard let chosen = try chosenProfile() else { return }
        url = url ?? chosen.url
        fieldOption = fieldOption ?? chosen.field
        concurrencyOption = concurrencyOption ?? chosen.concurrency
        retryOption = retryOption ?? chosen.retries
        let givenParameters = Set(try formArguments().map(\.name))
        let parameters = chosen.parameters.filter { !givenParameters.contains($0.name) }
        formString = parameters.enumerated().map { index, parameter in
            OrderedArgument(text: "\(parameter.name)=\(parameter.value)", position: index - parameters.count)
        } + formString
        var givenHeaders = Set(header.compactMap { HeaderField.parse($0)?.name.lowercased() })
        if user != nil || oauth2Bearer != nil { givenHeaders.insert(AuthorizationHeader.name.lowercased()) }
        header = chosen.headers.filter { !givenHeaders.contains($0.name.lowercased()) }.map { "\($0.name): \($0.value)" } + header
        connection.insecureChoice = connection.insecureChoice ?? chosen.insecure
        connection.cacert = connection.cacert ?? chosen.certificateAuthorityFile
        connection.capath = connection.capath ?? chosen.certificateAuthorityDirectory
        connection.clientCertificate = connection.clientCertificate ?? chosen.clientCertificateFile
        connection.clientKey = connection.clientKey ?? chosen.clientKeyFile
        connection.proxy = connection.proxy ?? chosen.proxy
        connection.noproxy = connection.noproxy ?? chosen.noProxy
        connection.locationChoice = connection.locationChoice ?? chosen.followsRedirects
        if connection.httpVersion == nil, chosen.offersHTTP2 == true { connection.httpVersion = .http2 }
        connection.resumableChoice = connection.resumableChoice ?? chosen.resumesUploads
        connection.idempotencyKeyChoice = connection.idempotencyKeyChoice ?? chosen.sendsIdempotencyKey
        connection.idempotentChoice = connection.idempotentChoice ?? chosen.endpointHonoursIdempotencyKeys
        try connection.validate()
    }
}
