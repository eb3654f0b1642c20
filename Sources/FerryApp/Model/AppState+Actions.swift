import TerminalUI
import Uploading

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
                confirmation = .quit(inFlight: summary.uploading, waiting: summary.queued)
                return []
            }
            return quitNow()
        case .forceQuit:
            return quitNow()
        case .queueSelection:
            return queueSelection()
        case .move(let movement): move(movement)
        case .open: return openCurrent()
        case .parent: return openParent()
        case .home: return [.loadDirectory(homeDirectory, focusName: nil)]
        case .refresh: return reloadDirectory()
        case .filter:
            browser.filterEditor = LineEditor(text: browser.filter)
            browser.filterEditor?.moveToEnd()
        case .toggleHidden: browser.toggleHidden()
        case .cycleSort: browser.cycleSort()
        case .toggleSelection: return toggleSelection()
        case .selectAll: selectAllShown()
        case .edit: return editCurrentRow()
        case .addRow: addRow()
        case .deleteRow: return deleteCurrentRow()
        case .reveal: form.revealsSecrets.toggle()
        case .details:
            if queue.detailsJobID != nil {
                queue.closeDetails()
            } else if let id = queue.current?.id, queue.openDetails(id) {
                return [.loadJobDetails(id)]
            }
        case .retry: return retryCurrent()
        case .retryFailedAndCancelled: return retryFailedAndCancelled()
        case .cancel: return queue.current.map { [.cancel($0.id)] } ?? []
        case .cancelAll: return [.cancelAll]
        case .togglePause:
            // The queue's pause changes when the engine says so (`pausedChanged`).
            let paused = !queue.isPaused
            return [.setPaused(paused), .rememberPause(paused)]
        case .remove: return queue.current.map { [.remove($0.id)] } ?? []
        case .clearSucceeded: return [.clearSucceeded]
        case .moreConcurrency: return changeConcurrency(by: 1)
        case .lessConcurrency: return changeConcurrency(by: -1)
        }
        return []
    }

    private mutating func queueSelection() -> [AppCommand] {
        let specs = form.jobSpecs(for: browser.selectedFiles)
        browser.clearSelection()
        queue.reserveCapacity(forAdding: specs.count)
        focus = .queue
        return [.enqueue(specs)]
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
        let (directory, name) = DirectoryReader.parent(of: browser.directory)
        guard directory != browser.directory else { return [] }
        return [.loadDirectory(directory, focusName: name.displayablePath)]
    }

    /// Selects the file under the cursor (or deselects it), or collects a folder's files, and
    /// moves down.
    private mutating func toggleSelection() -> [AppCommand] {
        guard let entry = browser.current else { return [] }
        browser.scroll.moveDown()
        if entry.isDirectory { return [.collectFiles(entry.path)] }
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
        case .remembersSecrets:
            form.settings.remembersSecrets.toggle()
        case .followsRedirects:
            form.settings.connection.followsRedirects.toggle()
        case .offersHTTP2:
            form.settings.connection.offersHTTP2.toggle()
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
        case .header, .newHeader, .proxy, .noProxy, .followsRedirects, .offersHTTP2, .verifiesCertificates, .certificateAuthorityFile,
             .certificateAuthorityDirectory, .clientCertificate, .clientKey:
            form.settings.headers.append(FormRow(name: "", value: ""))
            let fields = form.fields
            form.scroll.setCount(fields.count)
            form.scroll.select(fields.firstIndex(of: .header(form.settings.headers.count - 1)) ?? 0)
        case .url, .method, .fileField, .mode, .concurrency, .retries, .remembersSecrets, .parameter, .newParameter:
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
        case .url, .method, .fileField, .mode, .concurrency, .retries, .remembersSecrets, .newParameter, .newHeader,
             .proxy, .noProxy, .followsRedirects, .offersHTTP2, .verifiesCertificates, .certificateAuthorityFile,
             .certificateAuthorityDirectory, .clientCertificate, .clientKey:
            return []
        }
        form.scroll.setCount(form.fields.count)
        return commands(afterFormChangeFrom: before)
    }

    /// Retries the job under the cursor, asking first when it may have arrived.
    private mutating func retryCurrent() -> [AppCommand] {
        guard let job = queue.current else { return [] }
        if job.mayHaveArrived {
            confirmation = .resend(job.id, name: job.displayName)
            return []
        }
        return [.retry(job.id)]
    }

    private mutating func retryFailedAndCancelled() -> [AppCommand] {
        let skipped = queue.rows.values.filter(\.job.mayHaveArrived).count
        if skipped > 0 { notice = "\(skipped) upload(s) that may have arrived are left out: r on each sends it again" }
        return [.retryFailedAndCancelled]
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
