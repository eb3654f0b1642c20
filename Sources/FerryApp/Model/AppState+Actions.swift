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
        case .up, .down, .pageUp, .pageDown, .top, .bottom:
            move(action)
        case .open, .parent, .home, .refresh, .filter, .toggleHidden, .cycleSort, .toggleSelection, .selectAll:
            return browse(action)
        case .edit, .addRow, .deleteRow, .reveal:
            return editForm(action)
        case .details, .retry, .retryFailedAndCancelled, .cancel, .cancelAll, .togglePause, .remove, .clearSucceeded,
             .moreConcurrency, .lessConcurrency:
            return controlQueue(action)
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

    private mutating func move(_ action: KeyAction) {
        func apply(_ scroll: inout ListScroll) {
            switch action {
            case .up: scroll.moveUp()
            case .down: scroll.moveDown()
            case .pageUp: scroll.pageUp()
            case .pageDown: scroll.pageDown()
            case .top: scroll.moveToTop()
            case .bottom: scroll.moveToBottom()
            default: break
            }
        }
        switch focus {
        case .files: apply(&browser.scroll)
        case .form: apply(&form.scroll)
        case .queue:
            if let id = queue.detailsJobID, let job = queue.jobs[id] {
                scrollDetails(of: job, action)
            } else {
                apply(&queue.scroll)
            }
        }
    }

    /// Moves the help screen by a line, a page or to an end, within its length.
    mutating func scrollHelp(_ action: KeyAction) {
        let area = AppLayout(size: size).helpScreen.size
        helpScroll = Self.scrolled(helpScroll, by: action, limit: HelpScreen.maximumScroll(in: area),
                                   page: max(1, area.height - 3))
    }

    /// An offset moved by a line, a page or to an end, within `0...limit`.
    private static func scrolled(_ offset: Int, by action: KeyAction, limit: Int, page: Int) -> Int {
        let current = min(offset, limit)
        switch action {
        case .up: return max(0, current - 1)
        case .down: return min(limit, current + 1)
        case .pageUp: return max(0, current - page)
        case .pageDown: return min(limit, current + page)
        case .top: return 0
        case .bottom: return limit
        default: return current
        }
    }

    /// Moves the open details view by a line, a page or to an end, within its length.
    private mutating func scrollDetails(of job: UploadJob, _ action: KeyAction) {
        let area = AppLayout(size: size).body.size
        let limit = JobDetails.maximumScroll(of: job, in: area)
        queue.detailsScroll = Self.scrolled(queue.detailsScroll, by: action, limit: limit, page: max(1, area.height - 1))
    }

    private mutating func browse(_ action: KeyAction) -> [AppCommand] {
        switch action {
        case .open:
            guard let entry = browser.current else { return [] }
            return [.loadDirectory(entry.path, focusName: nil)]
        case .parent:
            let (directory, name) = DirectoryReader.parent(of: browser.directory)
            guard directory != browser.directory else { return [] }
            return [.loadDirectory(directory, focusName: name.displayablePath)]
        case .home:
            return [.loadDirectory(homeDirectory, focusName: nil)]
        case .refresh:
            return reloadDirectory()
        case .filter:
            browser.filterEditor = LineEditor(text: browser.filter)
            browser.filterEditor?.moveToEnd()
        case .toggleHidden:
            browser.toggleHidden()
        case .cycleSort:
            browser.cycleSort()
        case .toggleSelection:
            guard let entry = browser.current else { return [] }
            browser.scroll.moveDown()
            if entry.isDirectory { return [.collectFiles(entry.path)] }
            if let file = entry.queuedFile {
                if browser.isSelected(file.path) { browser.deselect([file.path]) } else { browser.select([file]) }
            }
        case .selectAll:
            let files = browser.shownEntries.compactMap(\.queuedFile)
            if files.allSatisfy({ browser.isSelected($0.path) }) {
                browser.deselect(files.map(\.path))
            } else {
                browser.select(files)
            }
        default:
            break
        }
        return []
    }

    /// Reads the folder shown again, keeping the cursor on its entry.
    func reloadDirectory() -> [AppCommand] {
        [.loadDirectory(browser.directory, focusName: browser.current?.name)]
    }

    private mutating func editForm(_ action: KeyAction) -> [AppCommand] {
        let field = form.currentField
        let before = form.settings
        switch action {
        case .edit:
            switch field {
            case .method:
                form.methodChoice = form.methodOptions.firstIndex(of: form.settings.method) ?? 0
            case .mode:
                form.settings.mode = form.settings.mode == .perFile ? .bundle : .perFile
            case .remembersSecrets:
                form.settings.remembersSecrets.toggle()
            case .newParameter, .newHeader:
                return editForm(.addRow)
            default:
                form.editing = FormEditing(field: field, text: form.text(of: field))
            }
        case .addRow:
            let fields: [FormField]
            switch field {
            case .header, .newHeader:
                form.settings.headers.append(FormRow(name: "", value: ""))
                fields = form.fields
                form.scroll.setCount(fields.count)
                form.scroll.select(fields.firstIndex(of: .header(form.settings.headers.count - 1)) ?? 0)
            default:
                form.settings.parameters.append(FormRow(name: "", value: ""))
                fields = form.fields
                form.scroll.setCount(fields.count)
                form.scroll.select(fields.firstIndex(of: .parameter(form.settings.parameters.count - 1)) ?? 0)
            }
            form.editing = FormEditing(field: form.currentField, text: "")
            return []
        case .deleteRow:
            switch field {
            case .parameter(let index): form.settings.parameters.remove(at: index)
            case .header(let index): form.settings.headers.remove(at: index)
            default: break
            }
            form.scroll.setCount(form.fields.count)
        case .reveal:
            form.revealsSecrets.toggle()
        default:
            break
        }
        return commands(afterFormChangeFrom: before)
    }

    private mutating func controlQueue(_ action: KeyAction) -> [AppCommand] {
        let job = queue.current
        switch action {
        case .details:
            queue.detailsJobID = queue.detailsJobID == nil ? job?.id : nil
            queue.detailsScroll = 0
        case .retry:
            guard let job else { return [] }
            if job.mayHaveArrived {
                confirmation = .resend(job.id, name: job.displayName)
                return []
            }
            return [.retry(job.id)]
        case .retryFailedAndCancelled:
            let skipped = queue.jobs.values.filter(\.mayHaveArrived).count
            if skipped > 0 { notice = "\(skipped) upload(s) that may have arrived are left out: r on each sends it again" }
            return [.retryFailedAndCancelled]
        case .cancel:
            return job.map { [.cancel($0.id)] } ?? []
        case .cancelAll:
            return [.cancelAll]
        case .togglePause:
            // The queue's pause changes when the engine says so (`pausedChanged`).
            let paused = !queue.isPaused
            return [.setPaused(paused), .rememberPause(paused)]
        case .remove:
            return job.map { [.remove($0.id)] } ?? []
        case .clearSucceeded:
            return [.clearSucceeded]
        case .moreConcurrency, .lessConcurrency:
            let delta = action == .moreConcurrency ? 1 : -1
            let limit = min(64, max(1, form.settings.concurrency + delta))
            guard limit != form.settings.concurrency else { return [] }
            let before = form.settings
            form.settings.concurrency = limit
            form.rejectedNumbers[.concurrency] = nil
            notice = "concurrency \(limit)"
            return commands(afterFormChangeFrom: before)
        default:
            break
        }
        return []
    }
}
