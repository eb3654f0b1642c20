import UploadModel

/// Endpoints that pause (``UploadEvent/endpointPaused(_:_:)``): the status line shows them; one
/// that refused the credentials asks for the header to change, in the Form's masked editor, and
/// saving a secret header then sends the uploads it held, with that header.
extension AppState {
    /// Applies an endpoint's pause, asking for credentials when they were just refused.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - pause: Why it is paused now.
    mutating func endpointPaused(_ endpoint: UploadEndpoint, _ pause: EndpointPause) {
        let wasRefused = queue.endpointPauses[endpoint]?.refusedCredentials != nil
        queue.endpointPauses[endpoint] = pause
        guard let words = pause.credentialsText(for: endpoint), !wasRefused else { return }
        notice = "\(words): its uploads wait; give the header its new value, Enter sends them with it"
        // A dialog, an editor or the help screen open: the notice and the status line say it.
        guard case .pane = inputMode else { return }
        let index: Int
        // `Authorization` first, else another secret header (a token, a key).
        let headers = form.settings.headers
        let secret = headers.firstIndex { $0.name.lowercased() == "authorization" } ?? headers.firstIndex(where: \.isSecretHeader)
        if let secret {
            index = secret
        } else {
            // An empty row, so Esc drops it again; what is typed into it is masked by its name.
            form.settings.headers.append(FormRow(name: "", value: ""))
            index = form.settings.headers.count - 1
        }
        let name = form.settings.headers[index].name.isEmpty ? "Authorization" : form.settings.headers[index].name
        focus = .form
        let fields = form.fields
        form.scroll.setCount(fields.count)
        form.scroll.select(fields.firstIndex(of: .header(index)) ?? 0)
        form.editing = FormEditing(field: .header(index), text: name + ": ")
    }

    /// The commands that send the uploads held for new credentials once a header row was saved:
    /// a secret header (`Authorization`, a token) with a value resumes every endpoint that
    /// refused the credentials, with it. Given for one endpoint, the header is bound to it
    /// (``FormSettings/credentialEndpoints``): it is never sent to another origin.
    ///
    /// - Parameter field: The row saved.
    /// - Returns: One ``AppCommand/resumeEndpoint(_:_:)`` per such endpoint.
    mutating func resumingEndpoints(after field: FormField) -> [AppCommand] {
        guard case .header(let index) = field, form.settings.headers.indices.contains(index) else { return [] }
        let header = form.settings.headers[index]
        guard header.isSecretHeader, !header.value.isEmpty else { return [] }
        let refused = queue.endpointPauses.filter { $0.value.refusedCredentials != nil }.keys.sorted()
        if refused.count == 1 { form.settings.credentialEndpoints[header.name.lowercased()] = refused[0].description }
        return refused.map { .resumeEndpoint($0, header) }
    }

    /// What the status line says of the paused endpoints: the first one's pause (credentials
    /// refused, or the seconds left of a `Retry-After`) and how many more there are; nil when
    /// none is paused.
    var endpointPauseSummary: String? {
        guard let (endpoint, pause) = queue.endpointPauses.min(by: { $0.key < $1.key }) else { return nil }
        let more = queue.endpointPauses.count > 1 ? " (+\(queue.endpointPauses.count - 1) more)" : ""
        if let status = pause.refusedCredentials { return "\(endpoint) needs credentials (\(status))\(more)" }
        guard let wait = pause.wait else { return nil }
        let left = now.map { max(0, Int(((wait.until - $0) / .seconds(1)).rounded(.up))) }
        return "\(endpoint) paused" + (left.map { " \($0) s" } ?? "") + " (\(wait.status))\(more)"
    }
}
