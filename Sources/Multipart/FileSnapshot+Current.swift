#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSnapshot {
    /// What the path names now, whatever kind of file it is (a directory's modification time
    /// moves when an entry is added, removed or renamed); nil when it cannot be examined.
    ///
    /// - Parameter path: The path; symbolic links are followed.
    public init?(currentStateOf path: String) {
        var info = stat()
        guard FileSystemName.withFileSystemPath(path, { stat($0, &info) }) == 0 else { return nil }
        self = FileInspector.snapshot(of: info, path: path)
    }
}
