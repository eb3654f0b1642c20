import FileSystem
import Glibc
import FerryApp
import Multipart
import TerminalUI
import TextFormat
import UploadModel

/// Reads directories for the file browser: the file-system I/O behind the model's
/// ``FerryApp/AppCommand/loadDirectory(_:focusName:)`` and ``FerryApp/AppCommand/collectFiles(_:includesHidden:)``,
/// beside the interface loop (the model holds none).
///
/// Never throws and never traps: a directory that cannot be read comes back as a listing with
/// an error, and odd entries (broken links, link loops, unreadable folders) are flagged.
///
/// Names are decoded with ``Multipart/FileSystemName``, so an entry's `path` names the file even
/// when its bytes are not UTF-8; its `name` shows such bytes as `\xNN`.
public enum DirectoryReader {
    /// Lists a directory.
    ///
    /// - Parameters:
    ///   - path: The directory.
    ///   - focusName: The entry the browser should put its cursor on.
    /// - Returns: The entries, or an error saying why the directory could not be read.
    public static func read(_ path: String, focusName: String? = nil) -> DirectoryListing {
        guard let directory = FileSystemName.withFileSystemPath(path, { opendir($0) }) else {
            return DirectoryListing(path: path, entries: [],
                                    error: "cannot open \(path.displayablePath): \(errorText(errno))",
                                    focusName: focusName)
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [BrowserEntry] = []
        while let pointer = readdir(directory) {
            let bytes = withUnsafeBytes(of: pointer.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            entries.append(entry(named: bytes, in: path, descriptor: descriptor))
        }
        return DirectoryListing(path: path, entries: entries, focusName: focusName)
    }

    /// Walks a directory recursively and returns every readable regular file under it, counting
    /// the folders and files that could not be read. Symbolic links to files are followed; links
    /// to directories are not (a link back up would never end). Hidden files and folders (a name
    /// starting with `.`) are left out unless `includesHidden`.
    ///
    /// Each file's part filename is its path relative to the directory's parent
    /// (`photos/2024/a.jpg` under `photos`), as browsers send a folder pick.
    ///
    /// - Parameters:
    ///   - path: The directory.
    ///   - includesHidden: Whether hidden files and folders are collected too.
    /// - Returns: The files and their total size.
    public static func collectFiles(under path: String, includesHidden: Bool = false) -> FileCollection {
        var files: [QueuedFile] = []
        var unreadable = 0
        var pending = [(path: path, relative: PathName.lastComponent(of: path))]
        while let directory = pending.popLast() {
            let listing = read(directory.path)
            if listing.error != nil { unreadable += 1 }
            let sorted = listing.entries.sorted { NaturalOrder.precedes($0.foldedName, $1.foldedName) }
            for entry in sorted where includesHidden || !entry.isHidden {
                let relative = directory.relative + "/" + PathName.lastComponent(of: entry.path)
                switch entry.kind {
                case .directory where !entry.isSymlink:
                    pending.append((entry.path, relative))
                case .file where entry.isUnreadable:
                    unreadable += 1
                case .file:
                    files.append(QueuedFile(path: entry.path, size: entry.size,
                                            modificationTimeNanoseconds: entry.modificationTimeNanoseconds,
                                            identity: entry.identity, partFilename: relative))
                default:
                    break
                }
            }
        }
        return FileCollection(directory: path, files: files, unreadableCount: unreadable)
    }

    /// Examines one entry relative to the open directory (`fstatat`), which is much faster than
    /// resolving full paths for 100,000 entries.
    private static func entry(named bytes: [UInt8], in directory: String, descriptor: Int32) -> BrowserEntry {
        let rawName = FileSystemName.decode(bytes)
        let isPlain = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        let name = isPlain ? rawName : DisplayWidth.displayable(bytes: bytes)
        let path = DirectoryPath.join(directory, rawName)
        let cName = bytes.map { CChar(bitPattern: $0) } + [0]
        var link = stat()
        guard fstatat(descriptor, cName, &link, AT_SYMLINK_NOFOLLOW) == 0 else {
            return BrowserEntry(name: name, path: path, kind: .other)
        }
        let isLink = (link.st_mode & S_IFMT) == S_IFLNK
        var target = link
        if isLink && fstatat(descriptor, cName, &target, 0) != 0 {
            let kind: BrowserEntry.Kind = errno == ELOOP ? .symlinkLoop : .brokenSymlink
            return BrowserEntry(name: name, path: path, kind: kind, modificationTimeNanoseconds: nanoseconds(link),
                                isSymlink: true)
        }
        let mode = target.st_mode & S_IFMT
        if mode == S_IFDIR {
            let readable = faccessat(descriptor, cName, R_OK | X_OK, 0) == 0
            return BrowserEntry(name: name, path: path, kind: .directory, modificationTimeNanoseconds: nanoseconds(target),
                                isSymlink: isLink, isUnreadable: !readable)
        }
        let isFile = mode == S_IFREG
        return BrowserEntry(name: name, path: path, kind: isFile ? .file : .other, size: Int64(target.st_size),
                            modificationTimeNanoseconds: nanoseconds(target), isSymlink: isLink,
                            isUnreadable: isFile && faccessat(descriptor, cName, R_OK, 0) != 0,
                            identity: isFile ? FileIdentity(device: UInt64(target.st_dev), inode: UInt64(target.st_ino)) : nil)
    }

    private static func nanoseconds(_ info: stat) -> Int64 {
        Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
