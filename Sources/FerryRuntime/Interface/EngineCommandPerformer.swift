import FerryApp
import Uploading

/// Carries out the interface's commands against the file system, the upload manager and the
/// journal.
public struct EngineCommandPerformer: CommandPerformer {
    /// The journal key under which the user's pause is remembered.
    public static let pauseKey = "paused"

    private let manager: UploadManager
    private let journal: UploadJournal?

    /// Creates the performer.
    ///
    /// - Parameters:
    ///   - manager: The upload engine.
    ///   - journal: The journal the form and the pause are saved in, if any.
    public init(manager: UploadManager, journal: UploadJournal?) {
        self.manager = manager
        self.journal = journal
    }

    public func perform(_ command: AppCommand) -> [AppMessage] {
        switch command {
        case .loadDirectory(let path, let focusName):
            return [.directoryLoaded(DirectoryReader.read(path, focusName: focusName))]
        case .collectFiles(let path):
            return [.filesCollected(DirectoryReader.collectFiles(under: path))]
        case .enqueue(let specs):
            do {
                try manager.enqueue(specs)
            } catch {
                return [.commandFailed("could not queue: \(error.description)")]
            }
        case .loadJobDetails(let id):
            return loadDetails(of: id)
        case .retry(let id): manager.retry(id)
        case let .retryWithRequest(ids, request):
            for id in ids { manager.retry(id, request: request) }
        case let .resumeEndpoint(endpoint, header): manager.resumeEndpoint(endpoint, replacingHeader: header)
        case .retryFailedAndCancelled: manager.retryFailedAndCancelled()
        case .cancel(let id): manager.cancel(id)
        case .cancelAll: manager.cancelAll()
        case .setPaused(let paused): paused ? manager.pause() : manager.resume()
        case .releaseHeld: manager.releaseHeld()
        case .rememberPause(let paused):
            do {
                try journal.map(InterfaceStateStore.init(journal:))?.save(paused, forKey: Self.pauseKey)
            } catch {
                return [.commandFailed("could not remember the pause: \(error.description)")]
            }
        case .setConcurrency(let limit): manager.setConcurrencyLimit(limit)
        case .remove(let id): manager.remove(id)
        case .clearSucceeded: manager.clearSucceeded()
        case .saveForm(let settings):
            do {
                try journal.map(InterfaceStateStore.init(journal:))?.save(settings)
            } catch {
                return [.commandFailed("could not save the form: \(error.description)")]
            }
        case .quit, .suspend:
            break
        }
        return []
    }

    /// A job whole: the engine's copy, or — for a succeeded job whose response and attempt
    /// history the engine dropped (it does when there is a journal) — the journal's row, once
    /// every change so far is written.
    private func loadDetails(of id: UploadJobID) -> [AppMessage] {
        guard let job = manager.job(id) else { return [.jobDetailsUnavailable(id, reason: "the job is no longer queued")] }
        guard job.state == .succeeded, job.response == nil, let journal else { return [.jobDetailsLoaded(job)] }
        manager.flushJournal()
        do {
            guard let whole = try journal.job(id) else {
                return [.jobDetailsUnavailable(id, reason: "the journal no longer holds this job")]
            }
            return [.jobDetailsLoaded(whole)]
        } catch {
            return [.jobDetailsUnavailable(id, reason: "the journal could not be read: \(error.description)")]
        }
    }
}
