import Crypto
import FileSystem
import FoundationEssentials
import Multipart
import Glibc

/// Where unfinished tus uploads wait: the staging folder `.ferry-tus` inside the upload directory
/// (``StagingFolder``), one `ID.part` with the bytes and one `ID.info` (``TusUploadInfo`` as JSON)
/// per upload.
///
/// Every method blocks: call them on the thread pool.
struct TusStaging: Sendable {
    /// The staging folder's name inside the upload directory.
    static let folderName = ".ferry-tus"
    /// How much of a file is read at a time to hash it.
    private static let readSize = 256 * 1024

    /// The upload directory (absolute).
    let uploadDirectory: String

    private var folder: StagingFolder { StagingFolder(uploadDirectory: uploadDirectory, name: Self.folderName) }

    /// The staging folder (absolute).
    var directory: String { folder.path }

    /// The path of an upload's bytes.
    ///
    /// - Parameter id: The upload's ID.
    /// - Returns: `…/.ferry-tus/ID.part`.
    func dataPath(_ id: String) -> String { directory + "/" + id + ".part" }

    private func infoPath(_ id: String) -> String { directory + "/" + id + ".info" }

    /// Creates an upload's empty data file and its info.
    ///
    /// - Parameter info: The new upload.
    /// - Returns: Success, or the storage error.
    func create(_ info: TusUploadInfo) -> Result<Void, ReceiverError> {
        if case .failure(let error) = folder.prepare() { return .failure(error) }
        let descriptor = FileSystemName.withFileSystemPath(dataPath(info.id)) {
            open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { return .failure(.storage(errno: errno, name: info.id + ".part", creating: true)) }
        close(descriptor)
        let written = write(info)
        if case .failure = written { remove(info.id) }
        return written
    }

    /// Persists an upload's info (a new file renamed over the old one, so a crash never leaves
    /// half of it).
    ///
    /// - Parameter info: The upload's state.
    /// - Returns: Success, or the storage error.
    func write(_ info: TusUploadInfo) -> Result<Void, ReceiverError> {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        guard let data = try? encoder.encode(info) else {
            return .failure(.storageFailed(reason: .writeFailed(name: info.id + ".info", errno: EINVAL)))
        }
        let temporary = infoPath(info.id) + ".tmp"
        let descriptor = FileSystemName.withFileSystemPath(temporary) {
            open($0, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { return .failure(.storage(errno: errno, name: info.id + ".info", creating: true)) }
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        close(descriptor)
        if let failure {
            _ = FileSystemName.withFileSystemPath(temporary) { unlink($0) }
            return .failure(.storage(errno: failure, name: info.id + ".info", creating: false))
        }
        let renamed = FileSystemName.withFileSystemPath(temporary) { from in
            FileSystemName.withFileSystemPath(infoPath(info.id)) { to in rename(from, to) }
        }
        guard renamed == 0 else { return .failure(.storage(errno: errno, name: info.id + ".info", creating: false)) }
        return .success(())
    }

    /// Cuts an upload's bytes back to `offset` (the bytes of a discarded PATCH).
    ///
    /// - Parameters:
    ///   - id: The upload's ID.
    ///   - offset: The length to keep.
    func truncate(_ id: String, to offset: Int64) {
        _ = FileSystemName.withFileSystemPath(dataPath(id)) { Glibc.truncate($0, off_t(offset)) }
    }

    /// Removes an upload's files (whichever exist).
    ///
    /// - Parameter id: The upload's ID.
    func remove(_ id: String) {
        for path in [dataPath(id), infoPath(id), infoPath(id) + ".tmp"] {
            _ = FileSystemName.withFileSystemPath(path) { unlink($0) }
        }
    }

    /// Reads back every upload staged by an earlier run. Files that belong to no usable info
    /// (a crash between two steps) are removed; an upload's bytes past its recorded offset
    /// (a PATCH cut by a crash before its offset was written) are cut off.
    ///
    /// - Returns: The uploads' infos.
    func restore() -> [TusUploadInfo] {
        let names = folder.entries()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        var infos: [TusUploadInfo] = []
        var kept = Set<String>()
        for name in names where name.hasSuffix(".info") {
            let id = String(name.dropLast(".info".count))
            guard TusRequestRules.isValidID(id),
                let data = FileManager.default.contents(atPath: infoPath(id)),
                var info = try? decoder.decode(TusUploadInfo.self, from: data), info.id == id
            else { continue }
            if info.file == nil {
                var status = stat()
                guard FileSystemName.withFileSystemPath(dataPath(id), { stat($0, &status) }) == 0 else { continue }
                if Int64(status.st_size) > info.offset {
                    truncate(id, to: info.offset)
                } else if Int64(status.st_size) < info.offset {
                    info.offset = Int64(status.st_size)
                    _ = write(info)
                }
            }
            infos.append(info)
            kept.insert(id)
        }
        for name in names {
            let id = String(name.prefix { $0 != "." })
            if !kept.contains(id) {
                _ = FileSystemName.withFileSystemPath(directory + "/" + name) { unlink($0) }
            }
        }
        return infos
    }

    /// Moves a complete upload into the upload directory under `name` (`name-1.ext`, … while
    /// taken; never over an existing file: ``StagingFolder/moveIntoUploadDirectory(_:as:)``),
    /// hashing it first unless its digest is known.
    ///
    /// - Parameters:
    ///   - id: The upload's ID.
    ///   - name: The safe name to start from.
    ///   - known: The file's size and lowercase hex SHA-256, when hashed as it arrived.
    /// - Returns: The name it was saved under, its size and its lowercase hex SHA-256.
    func finish(_ id: String, as name: SafeFilename, sha256 known: (Int64, String)? = nil)
        -> Result<(savedAs: String, size: Int64, sha256: String), ReceiverError>
    {
        let source = dataPath(id)
        let size: Int64
        let digest: String
        switch known.map({ Result<(Int64, String), ReceiverError>.success($0) }) ?? sha256(of: source) {
        case .success(let hashed): (size, digest) = hashed
        case .failure(let error): return .failure(error)
        }
        return folder.moveIntoUploadDirectory(source, as: name).map { ($0, size, digest) }
    }

    private func sha256(of path: String) -> Result<(Int64, String), ReceiverError> {
        let descriptor = FileSystemName.withFileSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return .failure(.storage(errno: errno, name: path, creating: false)) }
        defer { close(descriptor) }
        var hasher = SHA256()
        var size: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.storage(errno: errno, name: path, creating: false))
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            size += Int64(count)
        }
        return .success((size, hasher.finalize().lowercaseHex))
    }
}
