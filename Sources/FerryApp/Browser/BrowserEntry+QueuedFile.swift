import Uploading

extension BrowserEntry {
    /// The entry as a file to queue, if it is a regular file.
    var queuedFile: QueuedFile? {
        kind == .file ? QueuedFile(path: path, size: size, modificationTimeNanoseconds: modificationTimeNanoseconds) : nil
    }
}
