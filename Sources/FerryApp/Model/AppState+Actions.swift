import TerminalUI
import UploadModel

extension AppState {
    /// Carries out a key binding's action (already known to be enabled).
    ///
    /// - Parameter action: The action.
    /// - Returns: The commands it needs.
    mutating func perform(_ action: KeyAction) -> [AppCommand] {
        switch action {
        case .nextPane: focus = focus.next
        case .previousPane: focus = focus.previous
        case .focus(let pane): focus = pane
        case .showHelp:
            showsHelp = true
            helpScroll = 0
        case .quit:
            let summary = queue.summary
            guard summary.queued + summary.uploading == 0 else {
                // Nothing new starts while the question waits for an answer.
                confirmation = .quit(inFlight: summary.uploading, waiting: summary.queued)
                pausedBeforeQuitWait = queue.isPaused
                return queue.isPaused ? [] : [.setPaused(true)]
            }
            return quitNow()
        case .forceQuit:
            return quitNow()
        case .suspend:
            return [.suspend]
        case .queueSelection:
            return queueSelection()
        case .move(let movement): move(movement)
        case .open: return openCurrent()
        case .parent: return openParent()
        case .home: return [.loadDirectory(homeDirectory, focusName: nil)]
        case .refresh: return reloadDirectory()
        case .filter: openFilterEditor()
        case .toggleHidden: browser.toggleHidden()
        case .cycleSort: browser.cycleSort()
        case .toggleSelection: return toggleSelection()
        case .selectAll: selectAllShown()
        case .edit: return editCurrentRow()
        case .addRow: addRow()
        case .deleteRow: return deleteCurrentRow()
        case .reveal: form.revealsSecrets.toggle()
        case .viewRequest: return viewRequest()
        case .copyCurl: return copyCurl()
        case .copyLink: return copyLink()
        case .pickProfile: return [.loadProfiles]
        case .saveAsProfile: profileNameEditor = LineEditor(text: "")
        case .details:
            if queue.detailsJobID != nil {
                queue.closeDetails()
            } else if let id = queue.current?.id, queue.openDetails(id) {
                return [.loadJobDetails(id)]
            }
        case .retry: return retryCurrent()
        case .retryFailedAndCancelled: return retryFailedAndCancelled()
        case .cancel: return queue.current.map { [.cancel($0.id)] } ?? []
        case .cancelAll:
            guard queue.isFiltered else { return [.cancelAll] }
            return queue.shownIDs { $0.state == .queued || $0.state == .uploading }.map { .cancel($0) }
        case .togglePause:
            // The queue's pause changes when the engine says so (`pausedChanged`); `p` also
            // starts the jobs held since the start, and pauses only when nothing is held.
            if queue.isPaused { return [.setPaused(false), .rememberPause(false)] + (queue.heldCount > 0 ? [.releaseHeld] : []) }
            if queue.heldCount > 0 { return [.releaseHeld] }
            return [.setPaused(true), .rememberPause(true)]
        case .remove:
            guard let id = queue.current?.id else { return [] }
            queue.removeAhead([id])
            return [.remove(id)]
        case .clearSucceeded:
            let done = queue.shownIDs { $0.state == .succeeded }
            queue.removeAhead(done)
            return queue.isFiltered ? done.map { .remove($0) } : [.clearSucceeded]
        case .removeFailed:
            let failed = queue.shownIDs { $0.state == .failed }
            queue.removeAhead(failed)
            notice = "removed \(failed.count) failed upload(s)" + (queue.isFiltered ? " the filter showed" : "")
            return failed.map { .remove($0) }
        case .nextFailure:
            let shown = queue.shown
            let start = queue.scroll.cursor
            if let step = (1...max(1, shown.count)).first(where: { queue.rows[shown[(start + $0) % shown.count]]?.state == .failed }) {
                queue.scroll.select((start + step) % shown.count)
            }
        case .clearFilter:
            if focus == .queue { queue.setFilter("") } else { browser.setFilter("") }
        case .modal(let modal): return performModal(modal)
        case .moreConcurrency: return changeConcurrency(by: 1)
        case .lessConcurrency: return changeConcurrency(by: -1)
        }
        return []
    }

    /// Opens the focused pane's filter editor on its filter (the Queue's closes the details).
    private mutating func openFilterEditor() {
        var editor: LineEditor
        if focus == .queue {
            queue.closeDetails()
            editor = LineEditor(text: queue.filter.text)
        } else {
            editor = LineEditor(text: browser.filter)
        }
        editor.moveToEnd()
        if focus == .queue { queue.filterEditor = editor } else { browser.filterEditor = editor }
    }

    private mutating func queueSelection() -> [AppCommand] {
        let files = browser.selectedFiles
        let specs = form.jobSpecs(for: files)
        let again = queuedBefore(files.map(\.path))
        var notes: [String] = []
        if again > 0 { notes.append("\(again) of these file(s) were already queued or sent to this URL: they go again") }
        // New uploads wait while the user has the queue paused: say so rather than leave them
        // sitting. (Jobs held since the start do not hold them up.)
        if queue.isPaused { notes.append("the queue is paused: p starts it") }
        if !notes.isEmpty { notice = notes.joined(separator: "; ") }
        browser.clearSelection()
        queue.reserveCapacity(forAdding: specs.count)
        focus = .queue
        return [.enqueue(specs)]
    }

    /// How many of these paths a job in the queue already sends (or sent, or failed to send) to
    /// the form's URL.
    private func queuedBefore(_ paths: [String]) -> Int {
        let url = form.settings.url
        var known = Set<String>()
        for id in queue.order {
            guard let row = queue.rows[id], row.state != .cancelled else { continue }
            let job = row.job
            guard job.spec.url == url else { continue }
            for file in job.spec.files { known.insert(file.path) }
        }
        return paths.filter(known.contains).count
    }

    private mutating func move(_ movement: ListMovement) {
        func apply(_ scroll: inout ListScroll) {
            switch movement {
            case .up: scroll.moveUp()
            case .down: scroll.moveDown()
            case .pageUp: scroll.pageUp()
            case .pageDown: scroll.pageDown()
            case .top: scroll.moveToTop()
            case .bottom: scroll.moveToBottom()
            }
        }
        switch focus {
        case .files: apply(&browser.scroll)
        case .form: apply(&form.scroll)
        case .queue:
            if let job = queue.detailsJob {
                scrollDetails(of: job, movement)
            } else {
                apply(&queue.scroll)
            }
        }
    }

    /// Moves the help screen by a line, a page or to an end, within its length.
    mutating func scrollHelp(_ movement: ListMovement) {
        let area = AppLayout(size: size).helpScreen.size
        helpScroll = Self.scrolled(helpScroll, by: movement, limit: HelpScreen.maximumScroll(in: area),
                                   page: max(1, area.height - 3))
    }

    /// An offset moved by a line, a page or to an end, within `0...limit`.
    private static func scrolled(_ offset: Int, by movement: ListMovement, limit: Int, page: Int) -> Int {
        let current = min(offset, limit)
        switch movement {
        case .up: return max(0, current - 1)
        case .down: return min(limit, current + 1)
        case .pageUp: return max(0, current - page)
        case .pageDown: return min(limit, current + page)
        case .top: return 0
        case .bottom: return limit
        }
    }

    /// Moves the open details view by a line, a page or to an end, within its length.
    private mutating func scrollDetails(of job: UploadJob, _ movement: ListMovement) {
        let area = AppLayout(size: size).body.size
        let limit = JobDetails.maximumScroll(of: job, isLoading: queue.isLoadingDetails, problem: queue.detailsProblem, in: area)
        queue.detailsScroll = Self.scrolled(queue.detailsScroll, by: movement, limit: limit, page: max(1, area.height - 1))
    }

    private func openCurrent() -> [AppCommand] {
        guard let entry = browser.current else { return [] }
        return [.loadDirectory(entry.path, focusName: nil)]
    }

    private func openParent() -> [AppCommand] {
        let (directory, name) = DirectoryPath.parent(of: browser.directory)
        guard directory != browser.directory else { return [] }
        return [.loadDirectory(directory, focusName: name.displayablePath)]
    }

    /// Selects the file under the cursor (or deselects it), or collects a folder's files, and
    /// moves down.
    private mutating func toggleSelection() -> [AppCommand] {
        guard let entry = browser.current else { return [] }
        browser.scroll.moveDown()
        if entry.isDirectory { return [.collectFiles(entry.path, includesHidden: browser.showsHidden)] }
        if let file = entry.queuedFile {
            if browser.isSelected(file.path) { browser.deselect([file.path]) } else { browser.select([file]) }
        }
        return []
    }

    /// Selects every file shown, or deselects them when all are selected.
    private mutating func selectAllShown() {
        let files = browser.shownEntries.compactMap(\.queuedFile)
        if files.allSatisfy({ browser.isSelected($0.path) }) {
            browser.deselect(files.map(\.path))
        } else {
            browser.select(files)
        }
    }

    /// Reads the folder shown again, keeping the cursor on its entry.
    func reloadDirectory() -> [AppCommand] {
        [.loadDirectory(browser.directory, focusName: browser.current?.name)]
    }

    /// Edits the form row under the cursor: opens its editor, the Method choice, or toggles a
    /// two-way row; on a "new row" line, adds a row.
    private mutating func editCurrentRow() -> [AppCommand] {
        let before = form.settings
        switch form.currentField {
        case .method:
            form.methodChoice = form.methodOptions.firstIndex(of: form.settings.method) ?? 0
        case .mode:
            form.settings.mode = form.settings.mode == .perFile ? .bundle : .perFile
        case .uploadProtocol:
            form.settings.usesTus.toggle()
        case .remembersSecrets:
            form.settings.remembersSecrets.toggle()
        case .followsRedirects:
            form.settings.connection.followsRedirects.toggle()
        case .offersHTTP2:
            form.settings.connection.offersHTTP2.toggle()
        case .resumesUploads:
            form.settings.connection.resumesUploads.toggle()
        case .verifiesCertificates:
            form.settings.connection.verifiesCertificates.toggle()
        case .newParameter, .newHeader:
            addRow()
            return []
        case .url, .fileField, .concurrency, .retries, .parameter, .header, .proxy, .noProxy, .certificateAuthorityFile,
             .certificateAuthorityDirectory, .clientCertificate, .clientKey:
            form.editing = FormEditing(field: form.currentField, text: form.text(of: form.currentField))
        }
        return commands(afterFormChangeFrom: before)
    }

    /// Adds an empty header row (on a header line) or parameter row and opens its editor.
    private mutating func addRow() {
        switch form.currentField {
        case .header, .newHeader, .proxy, .noProxy, .followsRedirects, .offersHTTP2, .resumesUploads, .verifiesCertificates,
             .certificateAuthorityFile,
             .certificateAuthorityDirectory, .clientCertificate, .clientKey:
            form.settings.headers.append(FormRow(name: "", value: ""))
            let fields = form.fields
            form.scroll.setCount(fields.count)
            form.scroll.select(fields.firstIndex(of: .header(form.settings.headers.count - 1)) ?? 0)
        case .url, .method, .fileField, .mode, .uploadProtocol, .concurrency, .retries, .remembersSecrets, .parameter, .newParameter:
            form.settings.parameters.append(FormRow(name: "", value: ""))
            let fields = form.fields
            form.scroll.setCount(fields.count)
            form.scroll.select(fields.firstIndex(of: .parameter(form.settings.parameters.count - 1)) ?? 0)
        }
        form.editing = FormEditing(field: form.currentField, text: "")
    }

    /// Deletes the parameter or header row under the cursor.
    private mutating func deleteCurrentRow() -> [AppCommand] {
        let before = form.settings
        switch form.currentField {
        case .parameter(let index): form.settings.parameters.remove(at: index)
        case .header(let index): form.settings.headers.remove(at: index)
        case .url, .method, .fileField, .mode, .uploadProtocol, .concurrency, .retries, .remembersSecrets, .newParameter, .newHeader,
             .proxy, .noProxy, .followsRedirects, .offersHTTP2, .resumesUploads, .verifiesCertificates, .certificateAuthorityFile,
             .certificateAuthorityDirectory, .clientCertificate, .clientKey:
            return []
        }
        // The cursor stays among the rows of the kind deleted: on the next one, or the one
        // before when the last was deleted (not on "+ parameter").
        let fields = form.fields
        form.scroll.setCount(fields.count)
        switch form.currentField {
        case .newParameter where !form.settings.parameters.isEmpty:
            form.scroll.select(fields.firstIndex(of: .parameter(form.settings.parameters.count - 1)) ?? form.scroll.cursor)
        case .newHeader where !form.settings.headers.isEmpty:
            form.scroll.select(fields.firstIndex(of: .header(form.settings.headers.count - 1)) ?? form.scroll.cursor)
        default:
            break
        }
        return commands(afterFormChangeFrom: before)
    }

    /// Retries the job under the cursor, asking first when it may have arrived and the server
    /// cannot say what it holds (``UploadJob/serverCanSayWhatArrived``: then the retry asks it).
    private mutating func retryCurrent() -> [AppCommand] {
        guard let job = queue.current else { return [] }
        if job.mayHaveArrived, !job.serverCanSayWhatArrived {
            confirmation = .resend(job.id, name: job.displayName)
            return []
        }
        return retrying([job.id], asQueued: [.retry(job.id)])
    }

    /// Retries the failed and cancelled jobs (those the filter shows, when one is set) but
    /// those that may have arrived.
    private mutating func retryFailedAndCancelled() -> [AppCommand] {
        let skipped = queue.shownIDs { $0.job.mayHaveArrived && !$0.job.serverCanSayWhatArrived }.count
        if skipped > 0 { notice = "\(skipped) upload(s) that may have arrived are left out: r on each sends it again" }
        let ids = queue.shownIDs { row in
            (row.state == .failed || row.state == .cancelled) && (!row.job.mayHaveArrived || row.job.serverCanSayWhatArrived)
        }
        return retrying(ids, asQueued: queue.isFiltered ? ids.map { .retry($0) } : [.retryFailedAndCancelled])
    }

    /// Retries jobs: as they were queued (`asQueued`) when the form's request is the same, or
    /// when the form cannot send (a row is invalid); otherwise asks whether to send them with
    /// the form as it is now — after a 401 the user fixes the form's URL or headers, then retries.
    mutating func retrying(_ ids: [UploadJobID], asQueued: [AppCommand]) -> [AppCommand] {
        guard form.blockingReason == nil else { return asQueued }
        var changes: [String] = []
        for id in ids {
            guard let spec = queue.rows[id]?.job.spec else { continue }
            for change in form.requestChanges(from: spec) where !changes.contains(change) { changes.append(change) }
        }
        guard !changes.isEmpty else { return asQueued }
        confirmation = .retryWithForm(ids, changes: changes, asQueued: asQueued)
        return []
    }

    /// Runs one upload more or fewer at once (1...64).
    private mutating func changeConcurrency(by delta: Int) -> [AppCommand] {
        let limit = min(64, max(1, form.settings.concurrency + delta))
        guard limit != form.settings.concurrency else { return [] }
        let before = form.settings
        form.settings.concurrency = limit
        form.rejectedNumbers[.concurrency] = nil
        notice = "concurrency \(limit)"
        return commands(afterFormChangeFrom: before)
    }
}
