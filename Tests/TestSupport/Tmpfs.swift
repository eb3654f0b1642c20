import Foundation
import Glibc

/// A small tmpfs mounted on a fresh directory, for a disk that fills up: needs root (or
/// `CAP_SYS_ADMIN`); tests ask ``isPermitted`` first and are skipped with a message without it.
/// ``unmount()`` detaches it even while a file in it is still open (a journal a test could not
/// close), so no test leaves a mount behind.
public struct Tmpfs: Sendable {
    /// The mount point.
    public let path: String

    /// Whether this process may mount a tmpfs (tried once, on a scratch directory).
    public static let isPermitted: Bool = {
        guard let mount = try? Tmpfs(bytes: 65_536) else { return false }
        mount.unmount()
        return true
    }()

    /// Mounts a tmpfs of `bytes` on a new temporary directory.
    ///
    /// - Parameter bytes: Its size.
    /// - Throws: ``TestFailure`` when mounting is not permitted.
    public init(bytes: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard Glibc.mount("tmpfs", directory, "tmpfs", 0, "size=\(bytes),mode=0777") == 0 else {
            let error = errno
            try? FileManager.default.removeItem(atPath: directory)
            throw TestFailure("mount -t tmpfs failed, errno \(error)")
        }
        path = directory
    }

    /// Unmounts it and removes the mount point.
    public func unmount() {
        _ = umount2(path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(atPath: path)
    }
}
