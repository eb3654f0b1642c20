import ArgumentParser
import FerryApp
import Multipart

extension FormOptions {
    /// Whether any option that describes requests was given (then they win over the form the
    /// journal saved).
    var describesRequests: Bool {
        profile != nil || url != nil || hasFormParts || !header.isEmpty || user != nil || oauth2Bearer != nil
    }

    /// The form's settings from the options (over the `--profile`'s).
    ///
    /// - Returns: The settings.
    /// - Throws: `ValidationError` for a `-F` that is not a text parameter.
    func formSettings() throws -> FormSettings {
        let chosen = try chosenProfile()
        let parameters = try formArguments().map { argument -> FormRow in
            guard case .text(let value) = argument.value else {
                throw ValidationError("-F \(argument.name): the interface takes text parameters (NAME=VALUE) only; use `ferry send` for file parts")
            }
            return FormRow(name: argument.name, value: value)
        }
        let headers = try headerFields()
        return FormSettings(url: url ?? "", method: chosen?.method ?? "POST", fileField: field,
                            mode: chosen?.bundle == true ? .bundle : .perFile, concurrency: concurrency, retries: retry,
                            parameters: parameters, headers: headers, connection: connection.options(),
                            usesTus: chosen?.usesTus ?? false)
    }
}
