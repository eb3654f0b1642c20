import Multipart
import TOML
import UploadModel
import UploadProtocols

/// `profiles.toml` as text, read and written with the `TOML` module; no file I/O
/// (``ProfileStore`` does that).
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
/// The keys are `ferry send`'s long options (`EndpointProfile.keys`). Reading checks every key and value and
/// names the file and line, the profile and the key of the first wrong one; the parser's own
/// errors carry the line and column.
public enum ProfileDocument {
    /// The profiles a document holds, in their names' order.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - file: The file's path, for the errors.
    /// - Returns: The profiles, as written (`${NAME}` not yet expanded).
    /// - Throws: ``ProfileError`` for a syntax error (line and column), a key Ferry does not
    ///   know, or a value of the wrong kind or that cannot be used (`file:line`, the profile and
    ///   the key).
    public static func parse(_ text: String, file: String) throws(ProfileError) -> [EndpointProfile] {
        try read(try document(text, file: file), file: file)
    }

    /// The document for these profiles, every secret left out (``EndpointProfile/withoutSecrets()``).
    ///
    /// - Parameter profiles: The profiles.
    /// - Returns: The TOML text.
    public static func render(_ profiles: [EndpointProfile]) -> String {
        var all = TOMLTable()
        for profile in profiles { all[profile.name] = .table(table(profile.withoutSecrets().profile)) }
        return TOMLWriter.document(TOMLTable([("profiles", .table(all))]))
    }

    /// The document with a profile added, or put in place of the one of its name, its secrets
    /// left out. The rest of the text (other profiles, comments, blank lines) stays as it is
    /// written when the profile has a `[profiles.NAME]` section of its own, or is new; a profile
    /// written some other way (an inline table, dotted keys) has the document written anew from
    /// its profiles, without its comments.
    ///
    /// - Parameters:
    ///   - profile: The profile.
    ///   - text: The document as it is (empty for none).
    ///   - file: The file's path, for the errors.
    /// - Returns: The new document.
    /// - Throws: ``ProfileError`` when the document holds an error (as ``parse(_:file:)``).
    public static func saving(_ profile: EndpointProfile, in text: String, file: String) throws(ProfileError) -> String {
        let document = try document(text, file: file)
        let section = render([profile])
        let others = try read(document, file: file).filter { $0.name != profile.name }
        let expected = (others + (try parse(section, file: file))).sorted { $0.name < $1.name }
        if let edited = ProfileSection(name: profile.name, text: section).edit(text, document: document),
           (try? parse(edited, file: file)) == expected {
            return edited
        }
        return render(expected)
    }

    private static func document(_ text: String, file: String) throws(ProfileError) -> TOMLDocument {
        do {
            return try TOMLDocument(parsing: text)
        } catch {
            throw .syntax(file: file, line: error.position.line, column: error.position.column, detail: error.reason)
        }
    }

    private static func read(_ document: TOMLDocument, file: String) throws(ProfileError) -> [EndpointProfile] {
        let root = document.root
        if let other = root.keys.first(where: { $0 != "profiles" }) {
            throw .unknownKey(file: place(file, root, other), profile: nil, key: other)
        }
        guard let value = root["profiles"] else { return [] }
        guard let profiles = value.table else {
            throw .wrongType(file: place(file, root, "profiles"), profile: nil, key: "profiles", expected: "a table ([profiles.NAME])")
        }
        var result: [EndpointProfile] = []
        for name in profiles.keys.sorted() {
            guard let table = profiles[name]?.table else {
                throw .wrongType(file: place(file, profiles, name), profile: nil, key: "profiles.\(name)",
                                 expected: "a table ([profiles.\(name)])")
            }
            result.append(try ProfileReader(file: file, name: name, table: table).profile())
        }
        return result
    }

    /// `file:LINE` for the line where a key of a table is written, as compilers and editors
    /// write a place.
    static func place(_ file: String, _ table: TOMLTable, _ key: String) -> String {
        table.position(of: key).map { "\(file):\($0.line)" } ?? file
    }

    /// A profile's table, its keys in `EndpointProfile.keys`' order, unset ones left out.
    private static func table(_ saved: EndpointProfile) -> TOMLTable {
        let values: [(String, TOMLValue?)] = [
            ("url", saved.url.map(TOMLValue.string)), ("method", saved.method.map(TOMLValue.string)),
            ("field", saved.field.map(TOMLValue.string)), ("protocol", saved.usesTus.map { .string($0 ? "tus" : "multipart") }),
            ("bundle", saved.bundle.map(TOMLValue.boolean)),
            ("parameters", saved.parameters.isEmpty ? nil : .array(saved.parameters.map { .string("\($0.name)=\($0.value)") })),
            ("headers", saved.headers.isEmpty ? nil : .array(saved.headers.map { .string("\($0.name): \($0.value)") })),
            ("concurrency", saved.concurrency.map(TOMLValue.integer)), ("retry", saved.retries.map(TOMLValue.integer)),
            ("timeout", saved.timeout.map(TOMLValue.float)), ("insecure", saved.insecure.map(TOMLValue.boolean)),
            ("cacert", saved.certificateAuthorityFile.map(TOMLValue.string)),
            ("capath", saved.certificateAuthorityDirectory.map(TOMLValue.string)),
            ("cert", saved.clientCertificateFile.map(TOMLValue.string)), ("key", saved.clientKeyFile.map(TOMLValue.string)),
            ("proxy", saved.proxy.map(TOMLValue.string)), ("noproxy", saved.noProxy.map(TOMLValue.string)),
            ("location", saved.followsRedirects.map(TOMLValue.boolean)), ("http2", saved.offersHTTP2.map(TOMLValue.boolean)),
            ("resumable", saved.resumesUploads.map(TOMLValue.boolean)),
            ("idempotency-key", saved.sendsIdempotencyKey.map(TOMLValue.boolean)),
            ("idempotent", saved.endpointHonoursIdempotencyKeys.map(TOMLValue.boolean)),
        ]
        var table = TOMLTable()
        for case let (key, value?) in values { table[key] = value }
        return table
    }
}

/// Reads one `[profiles.NAME]` table into a profile, checking each key.
private struct ProfileReader {
    let file: String
    let name: String
    let table: TOMLTable

    func profile() throws(ProfileError) -> EndpointProfile {
        var profile = EndpointProfile(name: name)
        for key in table.keys where !EndpointProfile.keys.contains(key) {
            throw .unknownKey(file: ProfileDocument.place(file, table, key), profile: name, key: key)
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
            guard let seconds = value.float ?? value.integer.map(Double.init) else { throw wrongType("timeout", "a number of seconds") }
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
        profile.resumesUploads = try bool("resumable")
        profile.sendsIdempotencyKey = try bool("idempotency-key")
        profile.endpointHonoursIdempotencyKeys = try bool("idempotent")
        return profile
    }

    private func wrongType(_ key: String, _ expected: String) -> ProfileError {
        .wrongType(file: ProfileDocument.place(file, table, key), profile: name, key: key, expected: expected)
    }

    private func unusable(_ key: String, _ reason: String) -> ProfileError {
        .unusableValue(file: ProfileDocument.place(file, table, key), profile: name, key: key, reason: reason)
    }

    private func string(_ key: String) throws(ProfileError) -> String? {
        guard let value = table[key] else { return nil }
        guard let text = value.string else { throw wrongType(key, "a string") }
        return text
    }

    private func int(_ key: String) throws(ProfileError) -> Int? {
        guard let value = table[key] else { return nil }
        guard let number = value.integer else { throw wrongType(key, "an integer") }
        return number
    }

    private func bool(_ key: String) throws(ProfileError) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let flag = value.boolean else { throw wrongType(key, "true or false") }
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
