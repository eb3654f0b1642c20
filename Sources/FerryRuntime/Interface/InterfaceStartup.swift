import FerryApp
import UploadEngine
import UploadJournal

/// How the interface starts with what the journal holds: the start-up policy, out of the
/// executable so it is tested.
///
/// - Jobs another run left unfinished are held (``UploadJob/isHeld``) until the user starts
///   them (`p`, or `r` on one); new uploads start at once meanwhile.
/// - A queue the user paused stays paused: the engine is paused before anything is restored,
///   and resumed unless the user had paused it last time.
/// - Failed jobs come back for review (the model offers to clear them); cancelled jobs come
///   back cancelled, to retry or remove, as failed ones do.
/// - Jobs of `ferry send` are left for its `--resume`, and counted.
public enum InterfaceStartup {
    /// Restores the journal's jobs into the engine and says so to the model.
    ///
    /// - Parameters:
    ///   - manager: The engine; it **must** not have started anything yet.
    ///   - journal: The journal, if one is open.
    /// - Returns: ``AppMessage/jobsRestored(_:paused:othersWaiting:)``; or
    ///   ``AppMessage/commandFailed(_:)`` saying why the journal could not be read.
    public static func restore(into manager: UploadManager, journal: UploadJournal?) -> [AppMessage] {
        manager.pause()
        let store = journal.map(InterfaceStateStore.init(journal:))
        let paused = ((try? store?.value(Bool.self, forKey: EngineCommandPerformer.pauseKey)) ?? nil) == true
        do {
            let jobs = try manager.restore(holdingUnfinished: true, keepingCancelled: true)
            if !paused { manager.resume() }
            let othersWaiting = (try? journal?.unfinishedJobCount(of: .send)) ?? 0
            return [.jobsRestored(jobs, paused: paused, othersWaiting: othersWaiting)]
        } catch {
            manager.resume()
            return [.commandFailed("journal: \(error.description)")]
        }
    }
}
