import FerryHeadless
import FoundationEssentials
import Glibc
import Uploading

extension UploadJournal {
    /// The default journal, or nil with a warning on standard error when it cannot be opened:
    /// uploading goes on without one rather than not at all.
    ///
    /// - Parameter client: Whose jobs the handle inserts and restores.
    static func openDefaultOrWarn(client: JournalClient) -> UploadJournal? {
        do {
            return try UploadJournal.openDefault(client: client)
        } catch {
            StandardStream.error.writeLineIgnoringFailure("ferry: \(error); continuing without a journal")
            return nil
        }
    }
}
