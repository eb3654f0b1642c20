import FileSystem
import Foundation
import Glibc
import Multipart

/// A fresh directory under the system's temporary folder, removed when released.
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates the directory (a test cannot go on without it: failing to create it traps).
    public init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-tests-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the directory (nothing is created).
    ///
    /// - Parameter name: The name, or a relative path.
    /// - Returns: The absolute path.
    public func path(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    /// Writes a file and returns its path.
    ///
    /// - Parameters:
    ///   - name: The file's name inside the directory.
    ///   - bytes: Its content.
    /// - Returns: The file's absolute path.
    /// - Throws: When it cannot be written.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path(name)
        try TestFile.write(bytes, to: file)
        return file
    }

    /// Writes a file of `bytes` copies of `fill` and returns its path.
    ///
    /// - Parameters:
    ///   - name: The file's name inside the directory.
    ///   - bytes: Its size.
    ///   - fill: The byte it is made of.
    /// - Returns: The file's absolute path.
    @discardableResult
    public func file(_ name: String, bytes: Int = 100, fill: UInt8 = 0x61) -> String {
        let filePath = path(name)
        do {
            try TestFile.write([UInt8](repeating: fill, count: bytes), to: filePath)
        } catch {
            preconditionFailure("\(error)")
        }
        return filePath
    }

    /// Writes a file whose name is the given bytes (not necessarily UTF-8), with open(2) on the
    /// raw path, and returns its path as `FileSystemName` decodes it.
    ///
    /// - Parameters:
    ///   - rawName: The name's bytes.
    ///   - bytes: Its size.
    ///   - fill: The byte it is made of.
    /// - Returns: The file's path, decoded.
    @discardableResult
    public func file(rawName: [UInt8], bytes: Int = 100, fill: UInt8 = 0x61) -> String {
        let raw = Array(path.utf8) + [0x2F] + rawName
        let descriptor = open((raw + [0]).map { CChar(bitPattern: $0) }, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        precondition(descriptor >= 0, "cannot create \(raw)")
        let content = [UInt8](repeating: fill, count: bytes)
        precondition(content.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == bytes)
        close(descriptor)
        return FileSystemName.decode(raw)
    }

    /// The contents of every regular file under the directory, at any depth.
    ///
    /// - Returns: The contents, in no particular order.
    public func fileContents() -> [Data] {
        let enumerator = FileManager.default.enumerator(at: URL(fileURLWithPath: path),
                                                        includingPropertiesForKeys: [.isRegularFileKey])
        var contents: [Data] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
               let data = try? Data(contentsOf: url) {
                contents.append(data)
            }
        }
        return contents
    }
}
