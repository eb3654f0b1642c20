import FileSystem
import TerminalUI
import Multipart
import UploadModel

extension AppState {
    /// Opens the picker on the profiles read, or says there are none (and where they would be).
    mutating func openProfilePicker(_ choices: [ProfileChoice], file: String) -> [AppCommand] {
        guard !choices.isEmpty else {
            notice = "no profiles in \(file): S saves the form as one"
            return []
        }
        profilePicker = ProfilePicker(choices: choices, file: file)
        return []
    }

    /// Loads the highlighted profile into the form, or says why it cannot be used.
    mutating func loadChosenProfile() -> [AppCommand] {
        guard let picker = profilePicker, picker.choices.indices.contains(picker.cursor) else { return [] }
        let choice = picker.choices[picker.cursor]
        switch choice.profile {
        case .failure(let problem):
            notice = problem.description
            return []
        case .success(let profile):
            profilePicker = nil
            let before = form.settings
            form.settings = form.settings.loading(profile)
            form.editing = nil
            loadedProfile = choice
            notice = "loaded profile \(choice.name)"
            return commands(afterFormChangeFrom: before)
        }
    }

    /// Saves the form under the name typed (the runtime leaves its secrets out of the file).
    mutating func saveFormAsProfile() -> [AppCommand] {
        guard let name = profileNameEditor?.text.trimmingSpaces else { return [] }
        guard !name.isEmpty else {
            notice = "type a name for the profile (Esc cancels)"
            return []
        }
        profileNameEditor = nil
        let profile = form.settings.profile(named: name)
        return [.saveProfile(loadedProfile?.keepingReferences(in: profile) ?? profile)]
    }

    /// Says where a profile went and which variables its left-out secrets need.
    mutating func profileSaved(_ name: String, file: String, variables: [String]) {
        let secrets = variables.isEmpty ? "" : "; set \(variables.joined(separator: ", ")) (secrets are not written)"
        notice = "saved profile \(name)\(secrets) in \(file)"
    }

    /// `v`: the request of the form (with the files selected, else the one under the cursor) or
    /// of the job under the cursor in the Queue.
    mutating func viewRequest() -> [AppCommand] {
        guard let (spec, title) = requestToShow() else { return [] }
        return [.previewRequest(spec, title: title)]
    }

    /// `y`: the curl command for the same request; secrets as the Form shows them (`m`), a
    /// job's always masked.
    mutating func copyCurl() -> [AppCommand] {
        guard let (spec, _) = requestToShow() else { return [] }
        return [.makeCurlCommand(spec, showsSecrets: focus == .form && form.revealsSecrets)]
    }

    /// `Y`: the link the JSON answer of the job under the cursor gave, to the clipboard.
    mutating func copyLink() -> [AppCommand] {
        guard let row = queue.current.flatMap({ queue.rows[$0.id] }), let link = row.link else { return [] }
        notice = "copied \(link) (OSC 52)"
        return [.copyToClipboard(link)]
    }

    /// The request `v` and `y` describe, and what it is, in words.
    private func requestToShow() -> (UploadJobSpec, String)? {
        if focus == .queue {
            guard let job = queue.current else { return nil }
            return (job.spec, "Request of \(job.spec.files.first.map { PathName.lastComponent(of: $0.path) } ?? "the job")")
        }
        var files = browser.selectedFiles
        if files.isEmpty, let file = browser.current?.queuedFile { files = [file] }
        let specs = form.jobSpecs(for: files)
        let more = specs.count > 1 ? " (the first of \(specs.count) requests)" : ""
        guard let spec = specs.first else { return (form.request, "Request of the form, no file chosen") }
        return (spec, "Request of the form with \(spec.files.count) file(s)\(more)")
    }
}
