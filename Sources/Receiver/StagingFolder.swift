import FileSystem
import FoundationEssentials
import Glibc

/// A hidden folder inside the upload directory where files wait until they are whole: file parts
/// of a multipart upload as they arrive (`.ferry-partial`, ``PartFileWriter``) and unfinished tus
/// uploads (`.ferry-tus`, ``TusStaging``). On the same file system as the upload directory, so a
/// finished file goes in by a hard link — never a copy, never over an existing file — and nothing
/// in the upload directory itself is ever a file still arriving. No upload can land in a staging
/// folder: ``SafeFilename`` strips leading dots.
///
/// Every method blocks: call them on the thread pool.
struct StagingFolder: Sendable {
    /// The upload directory (absolute).
    let uploadDirectory: String
    /// The folder's name inside the upload directory.
    let name: String

    /// The folder (absolute).
    var path: String { uploadDirectory + "/" + name }

    /// Creates the folder if it is missing (mode 0700: unfinished files are nobody else's
    /// business); made at the first use, so a receiver that never needs it adds nothing.
    ///
    /// - Returns: Success, or the storage error.
    func prepare() -> Result<Void, ReceiverError> {
        let made = FileSystemName.withFileSystemPath(path) { mkdir($0, 0o700) }
        if made != 0 && errno != EEXIST {
            return .failure(.storage(errno: errno, name: name, creating: true))
        }
        var info = stat()
        guard FileSystemName.withFileSystemPath(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return .failure(.storageFailed(reason: .createFailed(name: name, errno: ENOTDIR)))
        }
        return .success(())
    }

    /// The names in the folder (none when it does not exist).
    func entries() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    /// Moves the whole file `source` (in this folder) into the upload directory under `name`
    /// (`name-1.ext`, `name-2.ext` … while taken): a hard link, which fails rather than replace an
    /// existing file, then the staged name removed.
    ///
    /// - Parameters:
    ///   - source: The staged file's path.
    ///   - name: The safe name to start from.
    /// - Returns: The name it was saved under, or the storage error.
    func moveIntoUploadDirectory(_ source: String, as name: SafeFilename) -> Result<String, ReceiverError> {
        for attempt in 0..<Self.maximumAttempts {
            let candidate = name.candidate(attempt)
            let linked = FileSystemName.withFileSystemPath(source) { from in
                FileSystemName.withFileSystemPath(uploadDirectory + "/" + candidate) { to in link(from, to) }
            }
            if linked == 0 {
                _ = FileSystemName.withFileSystemPath(source) { unlink($0) }
                return .success(candidate)
            }
            let error = errno
            if error == EEXIST || error == EINTR { continue }
            return .failure(.storage(errno: error, name: candidate, creating: true))
        }
        return .failure(.storageFailed(reason: .noFreeName(base: name.value)))
    }

    /// How many suffixed names (`name-1.ext` …) are tried before giving up.
    static let maximumAttempts = 10_000
}
