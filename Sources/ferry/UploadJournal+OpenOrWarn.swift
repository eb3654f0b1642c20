import Foundation
import Uploading

extension UploadJournal {
    /// The default journal, or nil with a warning on standard error when it cannot be opened:
    /// uploading goes on without one rather than not at all.
    static func openDefaultOrWarn() -> UploadJournal? {
        do {
            return try UploadJournal.openDefault()
        } catch {
            FileHandle.standardError.write(Data("ferry: \(error); continuing without a journal\n".utf8))
            return nil
        }
    }
}
