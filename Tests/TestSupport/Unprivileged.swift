import Foundation
import Glibc
import Synchronization

/// Runs the `ferry` processes a test starts as an ordinary user, as users run them.
///
/// CI and the development machines run the tests as root, where a permission, a capability or an
/// unreadable file behaves as it never does for a user (a socket option only root may set once
/// broke every upload unnoticed). When the tests run as root, every process a test starts from the
/// built binary (and the tmux server and clients of the interface tests) goes through `setpriv` to
/// uid and gid 65534 with no supplementary groups, and the test folders the command names are
/// handed to that user first. As any other user, commands run unchanged.
public enum Unprivileged {
    /// The user and group the processes run as when the tests run as root (`nobody`, `nogroup`).
    public static let id: UInt32 = 65534

    /// Whether processes are dropped to ``id``: the tests run as root and `setpriv` exists.
    public static let isDropping: Bool = getuid() == 0 && setprivPath != nil

    private static let setprivPath: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The command line that runs `arguments` as the ordinary user.
    ///
    /// - Parameter arguments: The program and its arguments.
    /// - Returns: `setpriv --reuid=65534 --regid=65534 --clear-groups -- ARGUMENTS` when
    ///   ``isDropping``, else `arguments` unchanged.
    public static func command(_ arguments: [String]) -> [String] {
        guard isDropping, let setpriv = setprivPath else { return arguments }
        return [setpriv, "--reuid=\(id)", "--regid=\(id)", "--clear-groups", "--"] + arguments
    }

    /// A path to `binary` that the ordinary user can run: `binary` itself when every folder above
    /// it lets others through, else a copy in a folder of the temporary directory that others may
    /// read, made once per test process. A clone under `/root` is closed to other users.
    ///
    /// - Parameter binary: The built binary.
    /// - Returns: The path to run.
    /// - Throws: ``TestFailure`` when the copy cannot be made.
    public static func reachable(_ binary: String) throws -> String {
        guard isDropping, !othersCanReach(binary) else { return binary }
        return try copies.withLock { copies in
            if let copy = copies[binary] { return copy }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-binary-\(getpid())-\(copies.count)").path
            removeCopiesOfEndedRuns()
            do {
                try? FileManager.default.removeItem(atPath: folder)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let copy = folder + "/" + URL(fileURLWithPath: binary).lastPathComponent
                try FileManager.default.copyItem(atPath: binary, toPath: copy)
                chmodTree(folder)
                copies[binary] = copy
                return copy
            } catch {
                throw TestFailure("cannot copy \(binary) where uid \(id) can run it: \(error)")
            }
        }
    }

    private static let copies = Mutex<[String: String]>([:])

    /// Removes the copies made by test processes that have ended (`ferry-binary-PID-N`).
    private static func removeCopiesOfEndedRuns() {
        let temporary = FileManager.default.temporaryDirectory.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix("ferry-binary-") {
            guard let pid = name.split(separator: "-").dropFirst(2).first.flatMap({ Int32($0) }) else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: temporary + "/" + name)
            }
        }
    }

    /// Whether every folder above `path` lets others through and `path` lets others run it.
    private static func othersCanReach(_ path: String) -> Bool {
        var url = URL(fileURLWithPath: path)
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & 0o005 == 0o005 else { return false }
        while url.path != "/" {
            url.deleteLastPathComponent()
            guard stat(url.path, &status) == 0, status.st_mode & 0o001 != 0 else { return false }
        }
        return true
    }

    /// Lets everyone read (and run or enter) everything under `root`.
    private static func chmodTree(_ root: String) {
        chmod(root, 0o755)
        guard let entries = FileManager.default.enumerator(atPath: root) else { return }
        while let relative = entries.nextObject() as? String {
            var status = stat()
            let path = root + "/" + relative
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFLNK else { continue }
            chmod(path, status.st_mode & S_IFMT == S_IFDIR || status.st_mode & 0o100 != 0 ? 0o755 : 0o644)
        }
    }

    /// Hands every test folder named in `strings` to the ordinary user, recursively.
    ///
    /// A test folder is a top-level entry of the system's temporary directory that a string names
    /// or contains (`/tmp/ferry-tests-…/a.txt`, `file=@/tmp/ferry-tests-…/a.txt`, `--dir=/tmp/…`).
    /// Its owner becomes ``id``, so the process can read what the test wrote and write where the
    /// test told it to; modes are left alone, so a file the test made unreadable stays unreadable.
    /// Does nothing when not ``isDropping``.
    ///
    /// - Parameter strings: Arguments, paths, environment values.
    public static func handOver(foldersIn strings: [String]) {
        guard isDropping else { return }
        for folder in Set(strings.flatMap(testFolders(in:))) {
            chownTree(folder)
        }
    }

    /// The temporary directory's top-level entries that `string` names.
    private static func testFolders(in string: String) -> [String] {
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        let prefix = temporary.hasSuffix("/") ? temporary : temporary + "/"
        var folders: [String] = []
        var rest = Substring(string)
        while let start = rest.range(of: prefix) {
            let name = rest[start.upperBound...].prefix { $0 != "/" && $0 != ";" && $0 != "\"" && $0 != "'" && $0 != "," }
            if !name.isEmpty { folders.append(prefix + name) }
            rest = rest[start.upperBound...]
        }
        return folders.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// `lchown` of `root` and everything under it, not following symbolic links; names are
    /// handled as bytes, so a folder holding names that are not UTF-8 is handed over whole.
    private static func chownTree(_ root: String) {
        chownTree(bytes: Array(root.utf8))
    }

    private static func chownTree(bytes path: [UInt8]) {
        let cPath = (path + [0]).map { CChar(bitPattern: $0) }
        lchown(cPath, id, id)
        var status = stat()
        guard lstat(cPath, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, let directory = opendir(cPath) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            chownTree(bytes: path + [0x2F] + name)
        }
    }
}
