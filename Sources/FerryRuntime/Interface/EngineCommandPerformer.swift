import FerryApp
import FerryConfig
import UploadModel
import UploadProtocols
import UploadEngine
import UploadJournal

/// Carries out the interface's commands against the file system, the upload manager and the
/// journal.
public struct EngineCommandPerformer: CommandPerformer {
    /// The journal key under which the user's pause is remembered.
    public static let pauseKey = "paused"

    private let manager: UploadManager
    private let journal: UploadJournal?
    private let profiles: ProfileStore?
    private let environment: [String: String]

    /// Creates the performer.
    ///
    /// - Parameters:
    ///   - manager: The upload engine.
    ///   - journal: The journal the form and the pause are saved in, if any.
    ///   - profiles: Where the endpoint profiles are read and saved, if anywhere.
    ///   - environment: The variables a profile's `${NAME}` references name.
    public init(manager: UploadManager, journal: UploadJournal?, profiles: ProfileStore? = nil, environment: [String: String] = [:]) {
        self.manager = manager
        self.journal = journal
        self.profiles = profiles
        self.environment = environment
    }

    public func perform(_ command: AppCommand) -> [AppMessage] {
        switch command {
        case .loadDirectory(let path, let focusName):
            return [.directoryLoaded(DirectoryReader.read(path, focusName: focusName))]
        case let .collectFiles(path, includesHidden):
            return [.filesCollected(DirectoryReader.collectFiles(under: path, includesHidden: includesHidden))]
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
        case .loadProfiles:
            return loadProfiles()
        case .saveProfile(let profile):
            guard let profiles else { return [.commandFailed("profiles cannot be saved: no profiles file")] }
            do {
                let variables = try profiles.save(profile)
                return [.profileSaved(profile.name, file: profiles.path, variables: variables)]
            } catch {
                return [.commandFailed("could not save the profile: \(error.description)")]
            }
        case let .previewRequest(spec, title):
            do {
                return [.requestPreviewed(title: title, lines: try FormBuilder().message(for: spec).previewLines)]
            } catch {
                return [.commandFailed("cannot show the request: \(error.description)")]
            }
        case let .makeCurlCommand(spec, showsSecrets):
            return [.curlCommandMade(String(decoding: CurlCommand(spec: spec, showsSecrets: showsSecrets).line, as: UTF8.self))]
        case .quit, .suspend, .copyToClipboard:
            break
        }
        return []
    }

    /// The profiles of the file, each expanded from the environment or with why it cannot be.
    private func loadProfiles() -> [AppMessage] {
        guard let profiles else { return [.commandFailed("no profiles file")] }
        do {
            let choices = try profiles.load().map { profile in
                ProfileChoice(written: profile, profile: Result { () throws(ProfileError) in try profile.expanded(environment: environment) })
            }
            return [.profilesLoaded(choices, file: profiles.path)]
        } catch {
            return [.commandFailed(error.description)]
        }
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
