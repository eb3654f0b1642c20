import TerminalUI
import Uploading

extension AppState {
    /// Applies a message to the state and returns the commands the runtime must carry out.
    ///
    /// - Parameter message: What happened.
    /// - Returns: What to do.
    public mutating func update(_ message: AppMessage) -> [AppCommand] {
        switch message {
        case .keyPressed(.resize(let size)):
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
        case .commandFailed(let text):
            notice = text
            return []
        case .terminationRequested:
            return perform(.forceQuit)
        }
    }

    /// The queue of an earlier session is back: unfinished jobs wait (paused) for `p`; failed
    /// ones are offered for review or clearing.
    private mutating func restored(_ jobs: [UploadJob], paused: Bool, othersWaiting: Int) -> [AppCommand] {
        for job in jobs { queue.upsert(job) }
        queue.isPaused = paused
        let waiting = jobs.filter { $0.state == .queued }.count
        var parts: [String] = []
        if waiting > 0 { parts.append("\(waiting) upload(s) from last time wait: p starts them") }
        if paused, waiting == 0 { parts.append("the queue is paused: p resumes it") }
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
        if quitsWhenInFlightFinish {
            if event == .key(.escape) {
                quitsWhenInFlightFinish = false
                notice = nil
                return [.setPaused(pausedBeforeQuitWait)]
            }
            if event == .key(.character("q")) { return quitNow() }
        }
        if showsHelp {
            if [.key(.escape), .key(.character("?")), .key(.character("q")), .key(.enter)].contains(event) {
                showsHelp = false
            } else if let binding = KeyBindings.binding(for: event, in: .files), let movement = ListMovement(binding.action) {
                scrollHelp(movement)
            }
            return []
        }
        if browser.filterEditor != nil, focus == .files { return editFilter(with: event) }
        if form.editing != nil, focus == .form { return editForm(with: event) }
        if form.methodChoice != nil, focus == .form { return chooseMethod(with: event) }
        if focus == .queue, queue.detailsJobID != nil, event == .key(.escape) {
            queue.closeDetails()
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
        switch (confirmation, event) {
        case (.quit(let inFlight, _), .key(.character("y"))), (.quit(let inFlight, _), .key(.character("Y"))),
             (.quit(let inFlight, _), .key(.enter)), (.quit(let inFlight, _), .key(.character("w"))):
            self.confirmation = nil
            guard inFlight > 0 else { return quitNow() }
            quitsWhenInFlightFinish = true
            pausedBeforeQuitWait = queue.isPaused
            notice = "quitting once \(inFlight) finish"
            return [.setPaused(true)]
        case (.quit, .key(.character("s"))), (.quit, .key(.character("S"))):
            self.confirmation = nil
            return quitNow()
        case (.earlierFailures(let ids), .key(.character("c"))), (.earlierFailures(let ids), .key(.character("C"))):
            self.confirmation = nil
            notice = "cleared \(ids.count) failed upload(s) of an earlier session"
            return ids.map { .remove($0) }
        case (.earlierFailures, .key(.character("y"))), (.earlierFailures, .key(.enter)),
             (.earlierFailures, .key(.character("r"))), (.earlierFailures, .key(.escape)):
            self.confirmation = nil
            return []
        case (.resend(let id, _), .key(.character("y"))), (.resend(let id, _), .key(.character("Y"))):
            self.confirmation = nil
            return [.retry(id)]
        case (.selectFolder(let collection), .key(.character("y"))), (.selectFolder(let collection), .key(.character("Y"))),
             (.selectFolder(let collection), .key(.enter)):
            self.confirmation = nil
            browser.select(collection.files)
            return []
        case (.quit, .key(.character("n"))), (.quit, .key(.character("N"))), (.quit, .key(.escape)), (.quit, .key(.character("q"))),
             (.resend, .key(.character("n"))), (.resend, .key(.character("N"))), (.resend, .key(.escape)), (.resend, .key(.enter)),
             (.selectFolder, .key(.character("n"))), (.selectFolder, .key(.character("N"))), (.selectFolder, .key(.escape)):
            self.confirmation = nil
            return []
        default:
            return []
        }
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
        var commands: [AppCommand] = [.saveForm(form.settings.savable)]
        if before.concurrency != form.settings.concurrency {
            commands.append(.setConcurrency(form.settings.concurrency))
        }
        return commands
    }
}
