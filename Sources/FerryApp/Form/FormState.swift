import Multipart
import TerminalUI
import UploadModel
import UploadProtocols

/// The form pane's state: the settings, the cursor over its rows, the row being edited and
/// whether secret header values are revealed.
public struct FormState: Hashable, Sendable {
    /// The settings requests are built from.
    public var settings: FormSettings
    /// The cursor over ``fields``.
    public var scroll = ListScroll()
    /// The row being edited, if any.
    public var editing: FormEditing?
    /// The highlighted option while the Method row's choice is open (an index into
    /// ``methodOptions``); `nil` when it is closed.
    public var methodChoice: Int?
    /// Whether masked header values are shown in clear (`v`).
    public var revealsSecrets = false
    /// Text typed into Concurrency or Retries that is not a number in range: shown and flagged
    /// inline (it blocks queueing) until corrected; the setting keeps its last valid value.
    public var rejectedNumbers: [FormField: String] = [:]

    /// Creates the form.
    ///
    /// - Parameter settings: The initial settings.
    public init(settings: FormSettings) {
        self.settings = settings
        scroll.setCount(fields.count)
    }

    /// What a masked secret shows instead of its value: always the same width, so the mask
    /// does not tell the secret's length.
    public static let secretMask = "••••••••"

    /// The methods the Method row offers.
    public static let standardMethods = ["POST", "PUT", "PATCH"]

    /// The Method row's options: the standard methods, and the current one if it is another
    /// (a saved form is not checked against the list).
    public var methodOptions: [String] {
        Self.standardMethods.contains(settings.method) ? Self.standardMethods : Self.standardMethods + [settings.method]
    }

    /// The rows of the form, in order.
    public var fields: [FormField] {
        [.url, .method, .fileField, .mode, .uploadProtocol, .concurrency, .retries, .remembersSecrets]
            + settings.parameters.indices.map(FormField.parameter) + [.newParameter]
            + settings.headers.indices.map(FormField.header) + [.newHeader] + FormField.connectionRows
    }

    /// The row under the cursor.
    public var currentField: FormField {
        let fields = self.fields
        return fields[min(scroll.cursor, fields.count - 1)]
    }

    /// The text of a row as the editor starts with it (unmasked).
    ///
    /// - Parameter field: The row.
    /// - Returns: Its text.
    public func text(of field: FormField) -> String {
        switch field {
        case .url: settings.url
        case .method: settings.method
        case .fileField: settings.fileField
        case .mode: settings.mode.label
        case .uploadProtocol: settings.usesTus ? "tus (resumable, one upload per file)" : "multipart/form-data"
        case .concurrency: rejectedNumbers[.concurrency] ?? String(settings.concurrency)
        case .retries: rejectedNumbers[.retries] ?? String(settings.retries)
        case .remembersSecrets: settings.remembersSecrets ? "remembered for the next start" : "forgotten on quit (Authorization, tokens, proxy password)"
        case .parameter(let index): settings.parameters[index].name + "=" + settings.parameters[index].value
        case .header(let index): settings.headers[index].name + ": " + settings.headers[index].value
        case .newParameter: "n or Enter adds a parameter (key=value)"
        case .newHeader: "n or Enter adds a header (Name: value)"
        case .proxy: proxy ?? ""
        case .noProxy: settings.connection.noProxy.joined(separator: ",")
        case .followsRedirects: settings.connection.followsRedirects ? "307 and 308 followed (-L)" : "not followed"
        case .offersHTTP2: settings.connection.offersHTTP2 ? "HTTP/2 when the server offers it (--http2)" : "HTTP/1.1 only"
        case .resumesUploads:
            settings.connection.resumesUploads ? "files over 64 KiB: a cut upload goes on where the server can (--resumable)" : "off"
        case .verifiesCertificates:
            settings.connection.verifiesCertificates ? "certificates verified" : "NOT verified (--insecure)"
        case .certificateAuthorityFile: settings.connection.certificateAuthorityFile ?? ""
        case .certificateAuthorityDirectory: settings.connection.certificateAuthorityDirectory ?? ""
        case .clientCertificate: settings.connection.clientCertificateFile ?? ""
        case .clientKey: settings.connection.clientKeyFile ?? ""
        }
    }

    /// The proxy the URL's requests use: the `https` one for an `https` URL, else the `http` one.
    private var proxy: String? {
        settings.url.lowercased().hasPrefix("https:") ? settings.connection.httpsProxy : settings.connection.httpProxy
    }

    /// What an empty connection row shows: what having no value means.
    private static func emptyMeaning(of field: FormField) -> String? {
        switch field {
        case .proxy: "none (http://host:port to use one)"
        case .noProxy: "none (hosts reached directly, comma-separated)"
        case .certificateAuthorityFile, .certificateAuthorityDirectory: "the system's authorities"
        case .clientCertificate, .clientKey: "none"
        default: nil
        }
    }

    /// The text of a row as the form shows it: secret header values masked unless revealed.
    ///
    /// - Parameter field: The row.
    /// - Returns: The text to show.
    public func displayText(of field: FormField) -> String {
        if case .header(let index) = field {
            let header = settings.headers[index]
            let only = settings.credentialEndpoints[header.name.lowercased()].map { "  (only to \($0))" } ?? ""
            if !revealsSecrets, header.isSecretHeader { return header.name + ": " + Self.secretMask + only }
            if !only.isEmpty { return header.name + ": " + header.value + only }
        }
        let text = text(of: field)
        if text.isEmpty, let meaning = Self.emptyMeaning(of: field) { return meaning }
        if field == .proxy, !revealsSecrets { return text.replacingURLPassword(with: Self.secretMask) }
        return text
    }

    /// Whether a row's value is masked while editing.
    ///
    /// - Parameter field: The row.
    /// - Returns: Whether it is a secret header — as its name is being typed, for the row being
    ///   edited — and secrets are not revealed.
    public func isMasked(_ field: FormField) -> Bool {
        guard case .header(let index) = field, !revealsSecrets else { return false }
        if let editing, editing.field == field, let name = editing.editor.text.split(separator: ":").first {
            return FormRow(name: String(name).trimmingSpaces, value: "").isSecretHeader
        }
        return settings.headers[index].isSecretHeader
    }

    /// Stores edited text into a row.
    ///
    /// - Parameters:
    ///   - text: The edited text.
    ///   - field: The row.
    public mutating func commit(_ text: String, to field: FormField) {
        switch field {
        case .url: settings.url = text.trimmingSpaces
        case .fileField: settings.fileField = text
        case .method, .mode, .uploadProtocol, .remembersSecrets, .newParameter, .newHeader, .followsRedirects, .offersHTTP2,
             .resumesUploads, .verifiesCertificates: break
        case .proxy:
            let proxy = text.trimmingSpaces.isEmpty ? nil : text.trimmingSpaces
            settings.connection.httpProxy = proxy
            settings.connection.httpsProxy = proxy
        case .noProxy: settings.connection.noProxy = ConnectionOptions.hostList(text)
        case .certificateAuthorityFile: settings.connection.certificateAuthorityFile = text.trimmingSpaces.nilWhenEmpty
        case .certificateAuthorityDirectory: settings.connection.certificateAuthorityDirectory = text.trimmingSpaces.nilWhenEmpty
        case .clientCertificate: settings.connection.clientCertificateFile = text.trimmingSpaces.nilWhenEmpty
        case .clientKey: settings.connection.clientKeyFile = text.trimmingSpaces.nilWhenEmpty
        case .concurrency:
            if let value = Int(text.trimmingSpaces), (1...64).contains(value) {
                settings.concurrency = value
                rejectedNumbers[.concurrency] = nil
            } else {
                rejectedNumbers[.concurrency] = text
            }
        case .retries:
            if let value = Int(text.trimmingSpaces), (0...100).contains(value) {
                settings.retries = value
                rejectedNumbers[.retries] = nil
            } else {
                rejectedNumbers[.retries] = text
            }
        case .parameter(let index):
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            settings.parameters[index] = FormRow(name: String(parts[0]).trimmingSpaces,
                                                 value: parts.count > 1 ? String(parts[1]) : "")
        case .header(let index):
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            // A header typed anew is the user's for every URL, until a 401 prompt binds it again.
            settings.credentialEndpoints[settings.headers[index].name.lowercased()] = nil
            settings.headers[index] = FormRow(name: String(parts[0]).trimmingSpaces,
                                              value: parts.count > 1 ? String(parts[1]).trimmingSpaces : "")
            settings.credentialEndpoints[settings.headers[index].name.lowercased()] = nil
        }
    }

    /// Why text typed into a parameter or header row cannot be taken as it is: a parameter
    /// without `=` (`noequals`), a header without `:` (`NoColon`) — curl refuses both, and
    /// saving them as `noequals=` or an empty header would send what the user did not write.
    /// Empty text is taken (the row is dropped).
    ///
    /// - Parameters:
    ///   - text: The edited text.
    ///   - field: The row.
    /// - Returns: The problem, in words, or nil.
    public static func shapeProblem(of text: String, in field: FormField) -> String? {
        guard !text.trimmingSpaces.isEmpty else { return nil }
        switch field {
        case .parameter where !text.contains("="):
            return "a parameter is name=value (an empty value is name=); Esc leaves it unchanged"
        case .header where !text.contains(":"):
            return "a header is Name: value; Esc leaves it unchanged"
        default:
            return nil
        }
    }

    /// The first row that blocks queueing, if any.
    public var firstInvalidField: FormField? {
        fields.first { error(of: $0) != nil }
    }

    /// Removes a parameter or header row whose name and value are both empty (a row added
    /// with `n` and left blank).
    ///
    /// - Parameter field: The row.
    public mutating func dropEmptyRow(_ field: FormField) {
        switch field {
        case .parameter(let index) where settings.parameters[index] == FormRow(name: "", value: ""):
            settings.parameters.remove(at: index)
        case .header(let index) where settings.headers[index] == FormRow(name: "", value: ""):
            settings.headers.remove(at: index)
        default:
            return
        }
        scroll.setCount(fields.count)
    }

    /// What is wrong with a row, if anything.
    ///
    /// - Parameter field: The row.
    /// - Returns: The inline error.
    public func error(of field: FormField) -> String? {
        switch field {
        case .url:
            if settings.url.isEmpty { return "enter the URL to upload to" }
            do { _ = try UploadTarget(settings.url) } catch { return error.description }
            return nil
        case .fileField:
            return settings.fileField.isEmpty ? "the file field name is empty" : nil
        case .parameter(let index):
            return settings.parameters[index].name.isEmpty ? "the parameter name is empty" : nil
        case .header(let index):
            let row = settings.headers[index]
            if row.name.isEmpty { return "expected 'Name: value'" }
            do { try RequestHeaders.check(row) } catch { return error.description }
            return nil
        case .concurrency:
            return rejectedNumbers[.concurrency] == nil ? nil : "enter a whole number from 1 to 64"
        case .retries:
            return rejectedNumbers[.retries] == nil ? nil : "enter a whole number from 0 to 100"
        case .proxy:
            guard let proxy, !proxy.isEmpty else { return nil }
            return proxy.contains("://") && !proxy.lowercased().hasPrefix("http://") ? "only http:// proxies" : nil
        case .clientKey:
            return settings.connection.clientKeyFile != nil && settings.connection.clientCertificateFile == nil
                ? "set the Client cert too" : nil
        case .method, .mode, .uploadProtocol, .remembersSecrets, .newParameter, .newHeader, .noProxy, .followsRedirects, .offersHTTP2,
             .resumesUploads, .verifiesCertificates, .certificateAuthorityFile, .certificateAuthorityDirectory, .clientCertificate:
            return nil
        }
    }

    /// The first problem that blocks queueing, as "label: reason", or `nil` when the form is valid.
    public var blockingReason: String? {
        for field in fields {
            if let error = error(of: field) { return "\(field.label): \(error)" }
        }
        return nil
    }

    /// Builds the jobs for files from the settings.
    ///
    /// - Parameter files: The files, in order.
    /// - Returns: One spec per file, or one for all, by ``FormSettings/mode``.
    public func jobSpecs(for files: [QueuedFile]) -> [UploadJobSpec] {
        // The jobs share one spec's URL, headers and parameters; only their files differ.
        let batch = request
        if settings.usesTus { return files.map { batch.replacingFiles([$0]) } }
        switch settings.mode {
        case .perFile: return files.map { batch.replacingFiles([$0]) }
        case .bundle: return files.isEmpty ? [] : [batch.replacingFiles(files)]
        }
    }

    /// The request the form describes, without files: what every job queued now shares, and
    /// what a retry "with the current form" sends.
    public var request: UploadJobSpec {
        UploadJobSpec(url: settings.url, method: settings.method, headers: settings.headers(for: settings.url),
                      fileField: settings.fileField,
                      textFields: settings.parameters, files: [], maximumRetries: settings.retries,
                      connection: settings.connection, tus: settings.usesTus ? TusJobOptions() : nil)
    }

    /// What of the request differs between a job's spec and the form as it is now, in words
    /// (`URL`, `headers`), in the form's order; empty when the job would go out the same.
    ///
    /// - Parameter spec: The job's spec.
    /// - Returns: The differences.
    public func requestChanges(from spec: UploadJobSpec) -> [String] {
        let now = request
        var changes: [String] = []
        if spec.url != now.url { changes.append("URL") }
        if spec.method != now.method { changes.append("method") }
        if spec.fileField != now.fileField { changes.append("file field") }
        if spec.maximumRetries != now.maximumRetries { changes.append("retries") }
        if spec.textFields != now.textFields { changes.append("parameters") }
        if spec.headers != now.headers { changes.append("headers") }
        if spec.connection != now.connection { changes.append("connection") }
        return changes
    }
}
