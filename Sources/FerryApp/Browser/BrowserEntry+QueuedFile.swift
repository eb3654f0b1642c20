import UploadModel

extension BrowserEntry {
    /// The entry as a file to queue, if it is a regular file that can be read.
    var queuedFile: QueuedFile? {
        guard kind == .file, !isUnreadable else { return nil }
        return QueuedFile(path: path, size: size, modificationTimeNanoseconds: modificationTimeNanoseconds, identity: identity)
    }
}
