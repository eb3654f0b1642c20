import TerminalUI
import UploadModel

extension AppState {
    /// What the keys answer right now: the one order in which dialogs, the quit's wait, the help
    /// screen, text fields, the Method choice and the details take keys before the pane does.
    public var inputMode: InputMode {
        if let confirmation { return .dialog(confirmation) }
        if quitsWhenInFlightFinish { return .quitWait }
        if showsHelp { return .help }
        if requestView != nil { return .requestView }
        if profileNameEditor != nil { return .profileName }
        if profilePicker != nil { return .profilePicker }
        if focus == .files, browser.filterEditor != nil { return .filterEditor }
        if focus == .queue, queue.filterEditor != nil { return .filterEditor }
        if focus == .form, form.editing != nil { return .formEditor }
        if focus == .form, form.methodChoice != nil { return .methodChoice }
        if focus == .queue, queue.detailsJobID != nil { return .details }
        return .pane(focus)
    }

    /// Carries out what a key does in a mode (``ModalKeys``).
    ///
    /// - Parameter action: The action.
    /// - Returns: The commands it needs.
    mutating func performModal(_ action: ModalAction) -> [AppCommand] {
        switch action {
        case .quitAfterInFlight:
            confirmation = nil
            let inFlight = queue.summary.uploading
            guard inFlight > 0 else { return quitNow() }
            quitsWhenInFlightFinish = true
            notice = "quitting once \(inFlight) finish"
            return []
        case .quitStoppingInFlight:
            confirmation = nil
            return quitNow()
        case .stayAfterQuitQuestion:
            confirmation = nil
            return pausedBeforeQuitWait ? [] : [.setPaused(false)]
        case .keepEarlierFailures:
            confirmation = nil
        case .clearEarlierFailures:
            guard case .earlierFailures(let ids)? = confirmation else { return [] }
            confirmation = nil
            notice = "cleared \(ids.count) failed upload(s) of an earlier session"
            queue.removeAhead(ids)
            return ids.map { .remove($0) }
        case .resendAnswered(let send):
            guard case .resend(let id, _)? = confirmation else { return [] }
            confirmation = nil
            return send ? retrying([id], asQueued: [.retry(id)]) : []
        case .selectFolderAnswered(let select):
            guard case .selectFolder(let collection)? = confirmation else { return [] }
            confirmation = nil
            if select { browser.selectWhole(collection) }
        case .retryWithCurrentForm:
            guard case let .retryWithForm(ids, changes, _)? = confirmation else { return [] }
            confirmation = nil
            queue.noteRetriedWithForm(ids, changes: changes)
            notice = "retrying \(ids.count) upload(s) with the current form (\(changes.joined(separator: ", ")) changed)"
            return [.retryWithRequest(ids, form.request)]
        case .retryAsQueued:
            guard case let .retryWithForm(_, _, asQueued)? = confirmation else { return [] }
            confirmation = nil
            return asQueued
        case .leaveRetry:
            confirmation = nil
        case .stopWaitingToQuit:
            quitsWhenInFlightFinish = false
            notice = nil
            return [.setPaused(pausedBeforeQuitWait)]
        case .quitWithoutWaiting:
            return quitNow()
        case .closeHelp:
            showsHelp = false
        case .scrollHelp(let movement):
            scrollHelp(movement)
        case .keepFilter:
            if focus == .queue { queue.filterEditor = nil } else { browser.filterEditor = nil }
        case .clearFilter:
            if focus == .queue {
                queue.filterEditor = nil
                queue.setFilter("")
            } else {
                browser.filterEditor = nil
                browser.setFilter("")
            }
        case .editText:
            break
        case .saveEdit:
            return saveEdit()
        case .cancelEdit:
            guard let editing = form.editing else { return [] }
            form.editing = nil
            form.dropEmptyRow(editing.field)
        case .chooseMethod(let step):
            guard let index = form.methodChoice else { return [] }
            form.methodChoice = min(form.methodOptions.count - 1, max(0, index + step))
        case .setMethod:
            guard let index = form.methodChoice else { return [] }
            form.methodChoice = nil
            let before = form.settings
            form.settings.method = form.methodOptions[min(index, form.methodOptions.count - 1)]
            return commands(afterFormChangeFrom: before)
        case .cancelMethodChoice:
            form.methodChoice = nil
        case .closeDetails:
            queue.closeDetails()
        case .closeRequestView:
            requestView = nil
        case .scrollRequestView(let step):
            guard var view = requestView else { return [] }
            view.scroll = min(max(0, view.scroll + step), max(0, view.lines.count - 1))
            requestView = view
        case .chooseProfile(let step):
            profilePicker?.move(step)
        case .loadProfile:
            return loadChosenProfile()
        case .closeProfilePicker:
            profilePicker = nil
        case .saveProfile:
            return saveFormAsProfile()
        case .cancelProfileName:
            profileNameEditor = nil
        }
        return []
    }

    /// Saves the form row being edited, unless its text cannot be sent as typed (then the
    /// editor stays open and says why).
    private mutating func saveEdit() -> [AppCommand] {
        guard let editing = form.editing else { return [] }
        if let problem = FormState.shapeProblem(of: editing.editor.text, in: editing.field) {
            notice = problem
            return []
        }
        form.editing = nil
        let before = form.settings
        form.commit(editing.editor.text, to: editing.field)
        let resuming = resumingEndpoints(after: editing.field)
        form.dropEmptyRow(editing.field)
        return commands(afterFormChangeFrom: before) + resuming
    }
}
