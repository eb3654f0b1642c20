import TerminalUI
import UploadModel

extension AppState {
    /// Applies a message to the state and returns the commands the runtime must carry out.
    ///
    /// - Parameter message: What happened.
    /// - Returns: What to do.
    public mutating func update(_ message: AppMessage) -> [AppCommand] {
        let shown = notice
        let commands = applying(message)
        if notice != shown { noticeSince = notice == nil ? nil : now }
        return commands
    }

    private mutating func applying(_ message: AppMessage) -> [AppCommand] {
        switch message {
        case .keyPressed(.resize(let size)):
            self.size = size
            applyLayout()
            return []
        case .clockTicked(let instant):
            now = instant
            if notice != nil, let since = noticeSince, instant - since >= Self.noticeLifetime {
                notice = nil
            }
            return []
        case .keyPressed(let event):
            return received(event)
        case .directoryLoaded(let listing):
            browser.load(listing)
            return arrived(.listing(listing.path))
        case .directoryChanged(let path):
            return path == browser.directory ? reloadDirectory() : []
        case .filesCollected(let collection):
            let commands = collected(collection)
            return commands + arrived(.collection(collection.directory))
        case .uploadEventReceived(let event):
            apply(event)
            return quitIfInFlightFinished()
        case .jobsRemoved(let ids):
            queue.remove(ids)
            return quitIfInFlightFinished()
        case .jobDetailsLoaded(let job):
            queue.detailsLoaded(job)
            return []
        case let .jobDetailsUnavailable(id, reason):
            queue.detailsUnavailable(id, reason: reason)
            return []
        case let .jobsRestored(jobs, paused, othersWaiting):
            return restored(jobs, paused: paused, othersWaiting: othersWaiting)
        case .formRestored(let settings):
            form = FormState(settings: settings)
            applyLayout()
            return []
        case let .profilesLoaded(choices, file):
            return openProfilePicker(choices, file: file)
        case let .profileSaved(name, file, variables):
            profileSaved(name, file: file, variables: variables)
            return []
        case let .requestPreviewed(title, lines):
            requestView = RequestView(title: title, lines: lines)
            return []
        case .curlCommandMade(let line):
            requestView = RequestView(title: "curl command — copied to the clipboard (OSC 52)", lines: [line])
            return [.copyToClipboard(line)]
        case .commandFailed(let text):
            notice = text
            return []
        case .terminationRequested:
            return perform(.forceQuit)
        }
    }

    /// The queue of an earlier session is back: unfinished jobs are held for `p` (new uploads
    /// start meanwhile); cancelled ones are back to retry or remove; failed ones are offered for
    /// review or clearing.
    private mutating func restored(_ jobs: [UploadJob], paused: Bool, othersWaiting: Int) -> [AppCommand] {
        for job in jobs { queue.upsert(job) }
        queue.isPaused = paused
        let held = jobs.filter(\.isHeld).count
        let cancelled = jobs.filter { $0.state == .cancelled }.count
        var parts: [String] = []
        if held > 0 { parts.append("\(held) upload(s) from last time are held: p starts them") }
        if paused { parts.append("the queue is paused: p resumes it") }
        if cancelled > 0 { parts.append("\(cancelled) cancelled upload(s) from last time: r retries, d removes") }
        if othersWaiting > 0 { parts.append("\(othersWaiting) job(s) of ferry send wait for ferry send --resume") }
        if !parts.isEmpty { notice = parts.joined(separator: "; ") }
        let failed = jobs.filter { $0.state == .failed }.map(\.id)
        if !failed.isEmpty {
            focus = .queue
            confirmation = .earlierFailures(failed)
        }
        return []
    }

    /// Quits once nothing is in flight, if the user chose to let the uploads finish.
    private mutating func quitIfInFlightFinished() -> [AppCommand] {
        guard quitsWhenInFlightFinish, queue.summary.uploading == 0, !isQuitting else { return [] }
        return quitNow()
    }

    private mutating func apply(_ event: UploadEvent) {
        switch event {
        case .removed(let id):
            queue.remove([id])
        case .pausedChanged(let isPaused):
            queue.isPaused = isPaused
        case let .endpointPaused(endpoint, pause):
            endpointPaused(endpoint, pause)
        case .endpointResumed(let endpoint):
            queue.endpointPauses[endpoint] = nil
        case .journalFailed(let error):
            queue.journalError = error.description
            notice = "journal: \(error.description)"
        case .idle:
            break
        default:
            if let job = event.job { queue.upsert(job, at: now) }
        }
    }

    /// Takes a typed key: applies it now, or keeps it for when the answer it (or a key before it)
    /// waits for has come (Ctrl-C and Ctrl-Z act at once).
    private mutating func received(_ event: KeyEvent) -> [AppCommand] {
        // Nothing but a text field's word keys is bound to Alt: a fast Esc then key arrives as
        // Alt-key, and is taken as the two keys.
        if case .alt(let key) = event, !editorTakes(event) {
            return received(.key(.escape)) + received(.key(key))
        }
        if event == .key(.ctrl("c")) {
            typeAhead = []
            return perform(.forceQuit)
        }
        // Ctrl-Z suspends at once, whatever is open or waited for: it changes nothing here.
        if event == .key(.ctrl("z")) { return perform(.suspend) }
        // While an answer is awaited, a key that reads what it brings waits for it, and so does
        // every key after the first that waited: keys act in the order they were typed.
        guard awaited == nil || (typeAhead.isEmpty && !readsAwaitedResult(event)) else {
            typeAhead.append(event)
            return []
        }
        return pressed(event)
    }

    /// Whether a key acts on what an awaited answer brings: the Files pane's keys and its
    /// filter (the folder's listing), and `u` anywhere (a folder's files being selected). Other
    /// keys (Tab, `?`, the Form's and the Queue's) act at once while a slow folder is read.
    private func readsAwaitedResult(_ event: KeyEvent) -> Bool {
        let binding = KeyBindings.binding(for: event, in: focus)
        if binding?.action == .queueSelection { return true }
        switch inputMode {
        case .filterEditor: return focus == .files
        case .pane(.files): return binding == nil || binding?.pane == .files
        default: return false
        }
    }

    /// Applies one key and notes the answer the next keys must wait for, if its commands ask
    /// for one (a folder's listing when the browser moves to another folder, a folder's files).
    private mutating func pressed(_ event: KeyEvent) -> [AppCommand] {
        notice = nil
        let commands = handleKey(event)
        for command in commands {
            switch command {
            case .loadDirectory(let path, _) where path != browser.directory: awaited = .listing(path)
            case .collectFiles(let path, _): awaited = .collection(path)
            default: break
            }
        }
        return commands
    }

    /// An answer came: if the keys typed ahead waited for it, they are applied, in order, until
    /// one of them waits again.
    private mutating func arrived(_ result: AwaitedResult) -> [AppCommand] {
        guard awaited == result else { return [] }
        awaited = nil
        var commands: [AppCommand] = []
        while awaited == nil, !isQuitting, !typeAhead.isEmpty {
            commands += pressed(typeAhead.removeFirst())
        }
        return commands
    }

    /// Whether the text field being edited uses an Alt key (a word move or delete).
    private func editorTakes(_ event: KeyEvent) -> Bool {
        if focus == .files, var editor = browser.filterEditor { return editor.handle(event) }
        if focus == .queue, var editor = queue.filterEditor { return editor.handle(event) }
        if focus == .form, var editing = form.editing { return editing.editor.handle(event) }
        if var editor = profileNameEditor { return editor.handle(event) }
        return false
    }

    /// Handles a key by the bindings of the mode the interface is in (``inputMode``): the mode's
    /// own (``ModalKeys``), then the text field's editor or the pane's (``KeyBindings``).
    private mutating func handleKey(_ event: KeyEvent) -> [AppCommand] {
        let mode = inputMode
        if let binding = ModalKeys.binding(for: event, in: mode), binding.action != .modal(.editText) {
            return perform(binding.action)
        }
        if mode.editsText { return editText(with: event) }
        guard mode.fallsThroughToPane, let binding = KeyBindings.binding(for: event, in: focus) else { return [] }
        if let reason = binding.whyDisabled(self) {
            notice = reason
            if binding.action == .queueSelection, !browser.selection.isEmpty, let field = form.firstInvalidField {
                // The row that stops the upload is shown, ready to fix.
                focus = .form
                form.scroll.select(form.fields.firstIndex(of: field) ?? 0)
            }
            return []
        }
        return perform(binding.action)
    }

    /// Gives a key to the text field being edited.
    private mutating func editText(with event: KeyEvent) -> [AppCommand] {
        if var editor = profileNameEditor {
            if editor.handle(event) { profileNameEditor = editor }
        } else if focus == .files, var editor = browser.filterEditor {
            guard editor.handle(event) else { return [] }
            browser.filterEditor = editor
            browser.setFilter(editor.text)
        } else if focus == .queue, var editor = queue.filterEditor {
            guard editor.handle(event) else { return [] }
            queue.filterEditor = editor
            queue.setFilter(editor.text)
        } else if focus == .form, var editing = form.editing, editing.editor.handle(event) {
            form.editing = editing
        }
        return []
    }

    /// Quits now: requests in flight are stopped (the runtime keeps their jobs).
    mutating func quitNow() -> [AppCommand] {
        isQuitting = true
        return [.saveForm(form.settings.savable), .quit]
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
            browser.selectWhole(collection)
        }
        return []
    }




    /// The commands a changed form needs: save it, and apply a new concurrency live.
    func commands(afterFormChangeFrom before: FormSettings) -> [AppCommand] {
        guard before != form.settings else { return [] }
        var commands: [AppCommand] = [.saveForm(form.settings.savable)]
        if before.concurrency != form.settings.concurrency {
            commands.append(.setConcurrency(form.settings.concurrency))
        }
        return commands
    }
}
