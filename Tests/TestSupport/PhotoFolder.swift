import Foundation

/// A folder to upload whole, `photos`, made in a temporary directory: nested folders, a name
/// with quotes, a hidden file and a hidden folder, a link to a file outside it (sent under the
/// link's name) and a link back up to the folder itself (not followed: it would never end).
public struct PhotoFolder: Sendable {
    /// The folder's path (`…/photos`).
    public let path: String

    /// The part filenames a folder upload sends without hidden files, sorted.
    public static let visibleNames = ["photos/2024/b.jpg", "photos/2024/deep/c \"q\".txt", "photos/a.txt", "photos/link.txt"]
    /// The part filenames hidden files add, sorted.
    public static let hiddenNames = ["photos/.git/x", "photos/.hidden"]

    /// Makes the folder.
    ///
    /// - Parameter directory: Where it is made.
    /// - Throws: When a file or link cannot be made.
    public init(in directory: TemporaryDirectory) throws {
        path = directory.path("photos")
        for folder in ["2024/deep", ".git"] {
            try FileManager.default.createDirectory(atPath: path + "/" + folder, withIntermediateDirectories: true)
        }
        for (index, name) in ["a.txt", "2024/b.jpg", "2024/deep/c \"q\".txt", ".hidden", ".git/x"].enumerated() {
            try TestFile.write([UInt8](repeating: 0x61 + UInt8(index), count: 10 + index), to: path + "/" + name)
        }
        try TestFile.write(Array("outside".utf8), to: directory.path("outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: path + "/link.txt", withDestinationPath: directory.path("outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: path + "/2024/up", withDestinationPath: path)
    }
}
