import FerryApp
import Uploading

/// How the interface starts with what the journal holds: the start-up policy, out of the
/// executable so it is tested.
///
/// - Jobs another run left unfinished wait, paused, for the user (`p`): the engine is paused
///   before anything is restored, and resumed only when none wait and the user had not paused
///   it last time.
/// - A queue the user paused stays paused.
/// - Failed jobs come back for review (the model offers to clear them).
/// - Jobs of `ferry send` are left for its `--resume`, and counted.
/// - Cancelled jobs are not kept from one run to the next (the user cancelled them): the restore
///   deletes them, and the model is told how many, so they do not vanish without a word.
public enum InterfaceStartup {
    /// Restores the journal's jobs into the engine and says so to the model.
    ///
    /// - Parameters:
    ///   - manager: The engine; it **must** not have started anything yet.
    ///   - journal: The journal, if one is open.
    /// - Returns: ``AppMessage/jobsRestored(_:paused:othersWaiting:)``, then
    ///   ``AppMessage/cancelledJobsCleared(_:)`` when cancelled jobs were deleted; or
    ///   ``AppMessage/commandFailed(_:)`` saying why the journal could not be read.
    public static func restore(into manager: UploadManager, journal: UploadJournal?) -> [AppMessage] {
        manager.pause()
        let store = journal.map(InterfaceStateStore.init(journal:))
        let rememberedPause = (try? store?.value(Bool.self, forKey: EngineCommandPerformer.pauseKey)) ?? nil
        let cancelled = (try? journal?.cancelledJobCount()) ?? 0
        do {
            let jobs = try manager.restore()
            let paused = rememberedPause == true || jobs.contains { $0.state == .queued }
            if !paused { manager.resume() }
            let othersWaiting = (try? journal?.unfinishedJobCount(of: .send)) ?? 0
            let restored = AppMessage.jobsRestored(jobs, paused: paused, othersWaiting: othersWaiting)
            return cancelled > 0 ? [restored, .cancelledJobsCleared(cancelled)] : [restored]
        } catch {
            manager.resume()
            return [.commandFailed("journal: \(error.description)")]
        }
    }
}
