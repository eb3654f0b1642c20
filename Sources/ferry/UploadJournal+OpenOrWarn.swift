import Foundation
import Uploading

extension UploadJournal {
    /// The default journal, or nil with a warning on standard error when it cannot be opened:
    /// uploading goes on without one rather than not at all.
    static func openDefaultOrWarn() -> UploadJournal? {
        do {
            return try UploadJournal.openDefault()
        } catch {
            StandardStream.error.writeLineIgnoringFailure("ferry: \(error); continuing without a journal")
            return nil
        }
    }
}
