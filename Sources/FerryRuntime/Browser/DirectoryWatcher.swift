import FileSystem
import Glibc
import Multipart

/// Watches the folder the browser shows for entries added, removed, renamed or written, with
/// inotify: the file-system I/O behind ``FerryApp/AppMessage/directoryChanged(_:)``. Never blocks: the
/// interface's loop asks ``takeChanges()`` on every turn.
///
/// Not Sendable: it **must** be used from one thread (the interface loop's). Without inotify
/// (or past the user's watch limit) it reports nothing and `r` still reloads.
public final class DirectoryWatcher {
    /// The folder watched, if any.
    public private(set) var directory: String?
    private let descriptor: Int32
    private var watchDescriptor: Int32 = -1

    /// What is watched: entries created, deleted, moved in or out, written and closed, or
    /// whose attributes (permissions, size by truncation) changed; the folder itself moving.
    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Creates a watcher that watches nothing yet.
    public init() {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Watches `path` instead of the folder watched before; changes still pending from that
    /// one are dropped.
    ///
    /// - Parameter path: The folder.
    public func watch(_ path: String) {
        directory = path
        guard descriptor >= 0 else { return }
        if watchDescriptor >= 0 { inotify_rm_watch(descriptor, watchDescriptor) }
        _ = takeChanges()
        watchDescriptor = FileSystemName.withFileSystemPath(path) { inotify_add_watch(descriptor, $0, Self.mask) }
    }

    /// Reads every pending event, without waiting.
    ///
    /// - Returns: Whether the watched folder changed since the last call.
    public func takeChanges() -> Bool {
        guard descriptor >= 0 else { return false }
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len].
                while offset + 16 <= count {
                    let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    if watch == watchDescriptor || mask & UInt32(IN_Q_OVERFLOW) != 0 { changed = true }
                    offset += 16 + length
                }
            }
        }
        return changed
    }
}
