import Glibc

extension ReceiverError {
    /// The storage error for a failed file system call: 507 for a full disk or quota, else a
    /// failure to create or to write `name`.
    ///
    /// - Parameters:
    ///   - errno: The call's `errno`.
    ///   - name: The file or folder it was about.
    ///   - creating: Whether the call created it (else it wrote or read it).
    /// - Returns: The error.
    static func storage(errno error: Int32, name: String, creating: Bool) -> ReceiverError {
        if error == ENOSPC || error == EDQUOT { return .storageFailed(reason: .outOfSpace(name: name, errno: error)) }
        return .storageFailed(reason: creating ? .createFailed(name: name, errno: error) : .writeFailed(name: name, errno: error))
    }
}
