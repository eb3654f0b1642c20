import FileSystem
import Glibc
import FerryRuntime
import Multipart

/// `ferry send -r`'s FILE arguments with each folder among them replaced by the files under it
/// (``FerryRuntime/DirectoryReader/collectFiles(under:includesHidden:)``: links to files
/// followed, links to folders not, hidden names only with `--hidden`), each file's part named by
/// its path relative to the folder's parent (`photos/2024/a.jpg`).
struct FolderArguments {
    /// Every file to send, in order: a FILE that is not a folder as given, a folder's files in
    /// its place.
    private(set) var files: [String] = []
    /// The part filename of each file found in a folder, by path.
    private(set) var partFilenames: [String: String] = [:]
    /// One line per folder with files or folders under it that could not be read (left out).
    private(set) var warnings: [String] = []

    /// Expands the folders among `arguments`.
    ///
    /// - Parameters:
    ///   - arguments: The FILE arguments.
    ///   - includesHidden: Whether hidden files and folders under a folder are sent too.
    init(expanding arguments: [String], includesHidden: Bool) {
        for argument in arguments {
            guard Self.isDirectory(argument) else {
                files.append(argument)
                continue
            }
            let collection = DirectoryReader.collectFiles(under: argument, includesHidden: includesHidden)
            for file in collection.files {
                files.append(file.path)
                partFilenames[file.path] = file.partFilename
            }
            if collection.unreadableCount > 0 {
                warnings.append("ferry: \(collection.unreadableCount) file(s) or folder(s) under "
                                + "\(FileSystemName.escaped(argument)) could not be read and are not sent")
            }
        }
    }

    /// Whether `path` names a folder (a link to one included: the folder was named).
    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return FileSystemName.withFileSystemPath(path) { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
