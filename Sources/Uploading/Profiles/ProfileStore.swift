import Foundation

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
        let base = configured ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        self.init(path: base + "/ferry/profiles.toml")
    }

    /// Every profile in the file; none when there is no file.
    ///
    /// - Returns: The profiles, as written.
    /// - Throws: ``ProfileError`` when the file cannot be read or holds an error.
    public func load() throws(ProfileError) -> [EndpointProfile] {
        guard let text = try contents() else { return [] }
        return try ProfileDocument.parse(text, file: path)
    }

    /// The file's text, or nil when there is no file.
    private func contents() throws(ProfileError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(file: path, reason: (error as NSError).localizedDescription)
        }
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
        let text = try ProfileDocument.saving(profile, in: try contents() ?? "", file: path)
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let temporary = folder + "/.profiles.toml.\(getpid())"
            guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw ProfileError.unwritable(file: path, reason: reason)
            }
        } catch let error as ProfileError {
            throw error
        } catch {
            throw .unwritable(file: path, reason: (error as NSError).localizedDescription)
        }
        return profile.withoutSecrets().variables
    }
}
