import Multipart
import TOMLKit

/// `profiles.toml` as text, read and written with TOMLKit; no file I/O (``ProfileStore`` does
/// that).
///
/// ```toml
/// [profiles.photos]
/// url = "https://example.com/upload"
/// protocol = "multipart"            # or "tus"
/// parameters = ["album=2024"]       # name=value, taken as it is
/// headers = ["Authorization: Bearer ${PHOTOS_TOKEN}"]
/// concurrency = 4
/// ```
///
/// The keys are `ferry send`'s long options (``keys``). Reading checks every key and value and
/// names the file and line, the profile and the key of the first wrong one; the parser's own
/// errors carry the line and column.
public enum ProfileDocument {
    /// The keys a profile may set.
    public static let keys = [
        "url", "method", "field", "protocol", "bundle", "parameters", "headers", "concurrency", "retry", "timeout",
        "insecure", "cacert", "capath", "cert", "key", "proxy", "noproxy", "location", "http2",
    ]

    /// The profiles a document holds, in their names' order.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - file: The file's path, for the errors.
    /// - Returns: The profiles, as written (`${NAME}` not yet expanded).
    /// - Throws: ``ProfileError`` for a syntax error (line and column), a key Ferry does not
    ///   know, or a value of the wrong kind or that cannot be used.
    public static func parse(_ text: String, file: String) throws(ProfileError) -> [EndpointProfile] {
        do throws(ProfileError) {
            return try read(text, file: file)
        } catch {
            throw error.located(in: text)
        }
    }

    private static func read(_ text: String, file: String) throws(ProfileError) -> [EndpointProfile] {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(file: file, line: error.source.begin.line, column: error.source.begin.column, detail: error.description)
        } catch {
            throw .syntax(file: file, line: 0, column: 0, detail: "\(error)")
        }
        if let other = root.keys.first(where: { $0 != "profiles" }) {
            throw .unknownKey(file: file, profile: nil, key: other)
        }
        guard let value = root["profiles"] else { return [] }
        guard let profiles = value.table else {
            throw .wrongType(file: file, profile: nil, key: "profiles", expected: "a table ([profiles.NAME])")
        }
        var result: [EndpointProfile] = []
        for name in profiles.keys.sorted() {
            guard let table = profiles[name]?.table else {
                throw .wrongType(file: file, profile: nil, key: "profiles.\(name)", expected: "a table ([profiles.\(name)])")
            }
            result.append(try ProfileReader(file: file, name: name, table: table).profile())
        }
        return result
    }

    /// The document for these profiles, every secret left out (``EndpointProfile/withoutSecrets()``).
    ///
    /// - Parameter profiles: The profiles.
    /// - Returns: The TOML text.
    public static func render(_ profiles: [EndpointProfile]) -> String {
        let all = TOMLTable()
        for profile in profiles {
            let saved = profile.withoutSecrets().profile
            let values: [(String, (any TOMLValueConvertible)?)] = [
                ("url", saved.url), ("method", saved.method), ("field", saved.field),
                ("protocol", saved.usesTus.map { $0 ? "tus" : "multipart" }), ("bundle", saved.bundle),
                ("parameters", saved.parameters.isEmpty ? nil : TOMLArray(saved.parameters.map { "\($0.name)=\($0.value)" })),
                ("headers", saved.headers.isEmpty ? nil : TOMLArray(saved.headers.map { "\($0.name): \($0.value)" })),
                ("concurrency", saved.concurrency), ("retry", saved.retries), ("timeout", saved.timeout),
                ("insecure", saved.insecure), ("cacert", saved.certificateAuthorityFile),
                ("capath", saved.certificateAuthorityDirectory), ("cert", saved.clientCertificateFile),
                ("key", saved.clientKeyFile), ("proxy", saved.proxy), ("noproxy", saved.noProxy),
                ("location", saved.followsRedirects), ("http2", saved.offersHTTP2),
            ]
            let table = TOMLTable()
            for case let (key, value?) in values { table[key] = value }
            all[profile.name] = table
        }
        let root = TOMLTable()
        root["profiles"] = all
        return root.convert(to: .toml, options: [.allowUnicodeStrings, .indentations]) + "\n"
    }
}

/// Reads one `[profiles.NAME]` table into a profile, checking each key.
private struct ProfileReader {
    let file: String
    let name: String
    let table: TOMLTable

    func profile() throws(ProfileError) -> EndpointProfile {
        var profile = EndpointProfile(name: name)
        for key in table.keys where !ProfileDocument.keys.contains(key) {
            throw .unknownKey(file: file, profile: name, key: key)
        }
        profile.url = try string("url")
        if let method = try string("method") {
            guard HTTPToken.isToken(method) else { throw unusable("method", "'\(method)' is not an HTTP method") }
            profile.method = method.uppercased()
        }
        profile.field = try string("field")
        if profile.field?.isEmpty == true { throw unusable("field", "the field name is empty") }
        switch try string("protocol") {
        case nil: break
        case "multipart": profile.usesTus = false
        case "tus": profile.usesTus = true
        case let other?: throw unusable("protocol", "'\(other)' is neither \"multipart\" nor \"tus\"")
        }
        profile.bundle = try bool("bundle")
        profile.parameters = try strings("parameters").map { (text) throws(ProfileError) -> FormTextField in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw unusable("parameters", "'\(text)': expected \"name=value\"")
            }
            return FormTextField(name: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
        }
        profile.headers = try strings("headers").map { (text) throws(ProfileError) -> HeaderField in
            guard let header = HeaderField.parse(text) else { throw unusable("headers", "'\(text)': expected \"Name: value\"") }
            do {
                try RequestHeaders.check(header)
            } catch {
                throw unusable("headers", "'\(header.name)': \(error)")
            }
            return header
        }
        profile.concurrency = try int("concurrency")
        if let concurrency = profile.concurrency, concurrency < 1 { throw unusable("concurrency", "must be at least 1") }
        profile.retries = try int("retry")
        if let retries = profile.retries, retries < 0 { throw unusable("retry", "must be 0 or more") }
        if let value = table["timeout"] {
            guard let seconds = value.double ?? value.int.map(Double.init) else { throw wrongType("timeout", "a number of seconds") }
            guard seconds > 0 else { throw unusable("timeout", "must be more than 0 seconds") }
            profile.timeout = seconds
        }
        profile.insecure = try bool("insecure")
        profile.certificateAuthorityFile = try string("cacert")
        profile.certificateAuthorityDirectory = try string("capath")
        profile.clientCertificateFile = try string("cert")
        profile.clientKeyFile = try string("key")
        profile.proxy = try string("proxy")
        profile.noProxy = try string("noproxy")
        profile.followsRedirects = try bool("location")
        profile.offersHTTP2 = try bool("http2")
        return profile
    }

    private func wrongType(_ key: String, _ expected: String) -> ProfileError {
        .wrongType(file: file, profile: name, key: key, expected: expected)
    }

    private func unusable(_ key: String, _ reason: String) -> ProfileError {
        .unusableValue(file: file, profile: name, key: key, reason: reason)
    }

    private func string(_ key: String) throws(ProfileError) -> String? {
        guard let value = table[key] else { return nil }
        guard let text = value.string else { throw wrongType(key, "a string") }
        return text
    }

    private func int(_ key: String) throws(ProfileError) -> Int? {
        guard let value = table[key] else { return nil }
        guard let number = value.int else { throw wrongType(key, "an integer") }
        return number
    }

    private func bool(_ key: String) throws(ProfileError) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let flag = value.bool else { throw wrongType(key, "true or false") }
        return flag
    }

    private func strings(_ key: String) throws(ProfileError) -> [String] {
        guard let value = table[key] else { return [] }
        guard let array = value.array else { throw wrongType(key, "an array of strings") }
        var result: [String] = []
        for element in array {
            guard let text = element.string else { throw wrongType(key, "an array of strings") }
            result.append(text)
        }
        return result
    }
}
