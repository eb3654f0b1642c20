import FileSystem
import FoundationEssentials
import Multipart

/// One entry of a directory listing, as the file browser shows it.
public struct BrowserEntry: Hashable, Sendable {
    /// What the entry is.
    public enum Kind: Hashable, Sendable {
        /// A directory (or a symbolic link to one).
        case directory
        /// A regular file (or a symbolic link to one).
        case file
        /// A symbolic link whose target does not exist.
        case brokenSymlink
        /// A symbolic link that points, eventually, at itself.
        case symlinkLoop
        /// Anything else: device, socket, FIFO.
        case other
    }

    /// The name, made displayable (undecodable bytes escaped, controls escaped).
    public var name: String
    /// The full path.
    public var path: String
    /// What the entry is.
    public var kind: Kind
    /// The size in bytes (of the target, for a link); 0 for directories.
    public var size: Int64
    /// The modification time in nanoseconds since 1970, if known.
    public var modificationTimeNanoseconds: Int64?
    /// Whether the entry is a symbolic link.
    public var isSymlink: Bool
    /// Whether a directory cannot be opened (no read or search permission), or a file cannot
    /// be read.
    public var isUnreadable: Bool
    /// Which file a regular file's entry is (of the target, for a link), if known: a pick keeps
    /// it (``queuedFile``), so a file replaced since is noticed, and its device tells the manager
    /// whether the file is on a local file system.
    public var identity: FileIdentity?
    /// The lowercased name, for the case-insensitive filter.
    public let foldedName: String

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - name: The displayable name.
    ///   - path: The full path.
    ///   - kind: What the entry is.
    ///   - size: The size in bytes.
    ///   - modificationTimeNanoseconds: The modification time.
    ///   - isSymlink: Whether it is a symbolic link.
    ///   - isUnreadable: Whether a directory cannot be opened or a file cannot be read.
    ///   - identity: Which file a regular file's entry is, if known.
    public init(name: String, path: String, kind: Kind, size: Int64 = 0, modificationTimeNanoseconds: Int64? = nil,
                isSymlink: Bool = false, isUnreadable: Bool = false, identity: FileIdentity? = nil) {
        self.name = name
        self.path = path
        self.kind = kind
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
        self.isSymlink = isSymlink
        self.isUnreadable = isUnreadable
        self.identity = identity
        self.foldedName = BrowserEntry.fold(name)
    }

    /// Lowercases a name, with a fast path for ASCII (most names, and 100,000 of them must load
    /// in well under a second).
    static func fold(_ name: String) -> String {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return name.lowercased() }
        return String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether the name starts with a dot.
    public var isHidden: Bool { name.hasPrefix(".") }

    /// Whether the entry is a directory one can open.
    public var isDirectory: Bool { kind == .directory }

    /// The modification time as a date.
    public var modificationDate: Date? {
        modificationTimeNanoseconds.map { Date(timeIntervalSince1970: Double($0) / 1e9) }
    }

    /// The inline problem shown next to the entry, if any.
    public var problem: String? {
        switch kind {
        case .brokenSymlink: "broken link"
        case .symlinkLoop: "symlink loop"
        case .directory where isUnreadable, .file where isUnreadable: "unreadable"
        default: nil
        }
    }
}
