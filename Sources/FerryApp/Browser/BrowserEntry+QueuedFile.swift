import Uploading

extension BrowserEntry {
    /// The entry as a file to queue, if it is a regular file that can be read.
    var queuedFile: QueuedFile? {
        kind == .file && !isUnreadable ? QueuedFile(path: path, size: size, modificationTimeNanoseconds: modificationTimeNanoseconds) : nil
    }
}
