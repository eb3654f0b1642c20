import TerminalUI
import Uploading

extension AppState {
    /// Applies a message to the state and returns the commands the runtime must carry out.
    ///
    /// - Parameter message: What happened.
    /// - Returns: What to do.
    public mutating func update(_ message: AppMessage) -> [AppCommand] {
        switch message {
        case .keyPressed(.resize(let size)), .resized(let size):
            self.size = size
            applyLayout()
            return []
        case .clockTicked(let instant):
            now = instant
            return []
        case .keyPressed(let event):
            notice = nil
            return handleKey(event)
        case .directoryLoaded(let listing):
            browser.load(listing)
            return []
        case .directoryChanged(let path):
            return path == browser.directory ? reloadDirectory() : []
        case .filesCollected(let collection):
            return collected(collection)
        case .uploadEventReceived(let event):
            apply(event)
            return []
        case .jobsRestored(let jobs):
            for job in jobs { queue.upsert(job) }
            if !jobs.isEmpty { notice = "\(jobs.count) unfinished job(s) restored from the journal" }
            return []
        case .formRestored(let settings):
            form = FormState(settings: settings)
            applyLayout()
            return []
        case .commandFailed(let text):
            notice = text
            return []
        case .terminationRequested:
            return perform(.forceQuit)
        }
    }

    private mutating func apply(_ event: UploadEvent) {
        switch event {
        case .removed(let id):
            queue.remove(id)
        case .journalFailed(let error):
            queue.journalError = error.description
            notice = "journal: \(error.description)"
        case .idle:
            break
        default:
            if let job = event.job { queue.upsert(job, at: now) }
        }
    }

    private mutating func handleKey(_ event: KeyEvent) -> [AppCommand] {
        if event == .key(.ctrl("c")) { return perform(.forceQuit) }
        // Outside text fields nothing is bound to Alt: a fast Esc then key arrives as Alt-key.
        if case .alt(let key) = event, browser.filterEditor == nil, form.editing == nil {
            return handleKey(.key(.escape)) + handleKey(.key(key))
        }
        if let confirmation { return answer(confirmation, with: event) }
        if showsHelp {
            if [.key(.escape), .key(.character("?")), .key(.character("q")), .key(.enter)].contains(event) {
                showsHelp = false
            } else if let binding = KeyBindings.binding(for: event, in: .files), KeyBindings.isMovement(binding.action) {
                scrollHelp(binding.action)
            }
            return []
        }
        if browser.filterEditor != nil, focus == .files { return editFilter(with: event) }
        if form.editing != nil, focus == .form { return editForm(with: event) }
        if form.methodChoice != nil, focus == .form { return chooseMethod(with: event) }
        if focus == .queue, queue.detailsJobID != nil, event == .key(.escape) {
            queue.detailsJobID = nil
            return []
        }
        if focus == .files, event == .key(.escape), !browser.filter.isEmpty {
            browser.setFilter("")
            return []
        }
        guard let binding = KeyBindings.binding(for: event, in: focus) else { return [] }
        if let reason = binding.whyDisabled(self) {
            notice = reason
            return []
        }
        return perform(binding.action)
    }

    private mutating func answer(_ confirmation: Confirmation, with event: KeyEvent) -> [AppCommand] {
        switch event {
        case .key(.character("y")), .key(.character("Y")), .key(.enter):
            self.confirmation = nil
            switch confirmation {
            case .quit:
                isQuitting = true
                return [.saveForm(form.settings), .quit]
            case .selectFolder(let collection):
                browser.select(collection.files)
                return []
            }
        case .key(.character("n")), .key(.character("N")), .key(.escape), .key(.character("q")):
            self.confirmation = nil
            return []
        default:
            return []
        }
    }

    private mutating func collected(_ collection: FileCollection) -> [AppCommand] {
        let paths = collection.files.map(\.path)
        if !paths.isEmpty && paths.allSatisfy(browser.isSelected) {
            browser.deselect(paths)
            return []
        }
        if collection.unreadableCount > 0 {
            notice = "\(collection.unreadableCount) folder(s) or file(s) under \(collection.directory.displayablePath) "
                + "could not be read"
        }
        if collection.files.isEmpty {
            notice = "no files under \(collection.directory.displayablePath)"
        } else if collection.files.count > 1000 {
            confirmation = .selectFolder(collection)
        } else {
            browser.select(collection.files)
        }
        return []
    }

    private mutating func editFilter(with event: KeyEvent) -> [AppCommand] {
        switch event {
        case .key(.escape):
            browser.filterEditor = nil
            browser.setFilter("")
        case .key(.enter), .key(.down), .key(.up):
            browser.filterEditor = nil
        default:
            guard var editor = browser.filterEditor, editor.handle(event) else { return [] }
            browser.filterEditor = editor
            browser.setFilter(editor.text)
        }
        return []
    }

    private mutating func editForm(with event: KeyEvent) -> [AppCommand] {
        guard var editing = form.editing else { return [] }
        switch event {
        case .key(.escape):
            form.editing = nil
            form.dropEmptyRow(editing.field)
            return []
        case .key(.enter):
            form.editing = nil
            let before = form.settings
            form.commit(editing.editor.text, to: editing.field)
            form.dropEmptyRow(editing.field)
            return commands(afterFormChangeFrom: before)
        default:
            if editing.editor.handle(event) { form.editing = editing }
            return []
        }
    }

    /// Moves through the Method row's options, sets the highlighted one (Enter) or closes
    /// the choice without a change (Esc).
    private mutating func chooseMethod(with event: KeyEvent) -> [AppCommand] {
        guard let index = form.methodChoice else { return [] }
        let last = form.methodOptions.count - 1
        switch event {
        case .key(.left), .key(.up), .key(.character("h")), .key(.character("k")):
            form.methodChoice = max(0, index - 1)
        case .key(.right), .key(.down), .key(.character("l")), .key(.character("j")):
            form.methodChoice = min(last, index + 1)
        case .key(.enter):
            form.methodChoice = nil
            let before = form.settings
            form.settings.method = form.methodOptions[min(index, last)]
            return commands(afterFormChangeFrom: before)
        case .key(.escape):
            form.methodChoice = nil
        default:
            break
        }
        return []
    }

    /// The commands a changed form needs: save it, and apply a new concurrency live.
    func commands(afterFormChangeFrom before: FormSettings) -> [AppCommand] {
        guard before != form.settings else { return [] }
        var commands: [AppCommand] = [.saveForm(form.settings)]
        if before.concurrency != form.settings.concurrency {
            commands.append(.setConcurrency(form.settings.concurrency))
        }
        return commands
    }
}
