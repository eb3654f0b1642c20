import FileSystem
import FoundationEssentials
import Glibc
import Multipart
import UploadModel

/// `profiles.toml` on disk: `$XDG_CONFIG_HOME/ferry/profiles.toml`, by default
/// `~/.config/ferry/profiles.toml`. Reading and writing only; the text is ``ProfileDocument``'s.
public struct ProfileStore: Sendable, Hashable {
    /// The file's path.
    public let path: String

    /// A store at a path.
    ///
    /// - Parameter path: The file.
    public init(path: String) {
        self.path = path
    }

    /// The store where the environment says: `$XDG_CONFIG_HOME/ferry/profiles.toml`, else
    /// `$HOME/.config/ferry/profiles.toml` (an empty or relative `XDG_CONFIG_HOME` is ignored, as
    /// the XDG specification says).
    ///
    /// - Parameter environment: The process's environment.
    public init(environment: [String: String]) {
        let configured = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let base = configured ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
        self.init(path: base + "/ferry/profiles.toml")
    }

    /// Every profile in the file; none when there is no file.
    ///
    /// - Returns: The profiles, as written.
    /// - Throws: ``ProfileError`` when the file cannot be read or holds an error.
    public func load() throws(ProfileError) -> [EndpointProfile] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try ProfileDocument.parse(try readText(), file: path)
    }

    /// The profile of this name.
    ///
    /// - Parameter name: Its name.
    /// - Returns: The profile, as written.
    /// - Throws: ``ProfileError``: the file's errors, or ``ProfileError/notFound(profile:file:available:)``.
    public func profile(named name: String) throws(ProfileError) -> EndpointProfile {
        let profiles = try load()
        guard let profile = profiles.first(where: { $0.name == name }) else {
            throw .notFound(profile: name, file: path, available: profiles.map(\.name))
        }
        return profile
    }

    /// Adds a profile to the file, or replaces the one of its name, secrets left out; the file
    /// (mode 0600, its folder made if missing) is replaced whole, so a reader never sees half of it.
    /// The other profiles' text and the comments stay as written
    /// (``ProfileDocument/saving(_:in:file:)``).
    ///
    /// - Parameter profile: The profile.
    /// - Returns: The environment variables the saved profile names for its secrets.
    /// - Throws: ``ProfileError`` when the file holds an error (it is left as it is) or cannot
    ///   be written.
    @discardableResult
    public func save(_ profile: EndpointProfile) throws(ProfileError) -> [String] {
        let existing = FileManager.default.fileExists(atPath: path) ? try readText() : ""
        try write(try ProfileDocument.saving(profile, in: existing, file: path))
        return profile.withoutSecrets().variables
    }

    /// The file's text; its failures in the C library's words.
    private func readText() throws(ProfileError) -> String {
        let bytes: [UInt8]
        switch DescriptorInput.readFile(atPath: path) {
        case let .success(read): bytes = read
        case let .failure(failure): throw .unreadable(file: path, reason: SystemError.message(for: failure.errno))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .unreadable(file: path, reason: "not UTF-8 text")
        }
        return text
    }

    /// Replaces the file with `text` through a temporary file and a rename (its folder made,
    /// mode 0700, if missing); failures in the C library's words.
    private func write(_ text: String) throws(ProfileError) {
        let folder = PathName.parent(of: path)
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw .unwritable(file: path, reason: "cannot create the folder \(folder)")
            }
        }
        let temporary = PathName.joined(folder, ".profiles.toml.\(getpid())")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unwritable(file: path, reason: SystemError.message(for: errno)) }
        var failure: Int32?
        Array(text.utf8).withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { failure = errno; return }
                offset += count
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw .unwritable(file: path, reason: SystemError.message(for: failure))
        }
    }
}
