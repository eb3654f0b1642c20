import FileSystem
import Glibc
import FerryApp
import FerryRuntime
import Foundation
import Multipart
import Testing
import TestSupport
import UploadModel

@Suite("Directory reader")
struct DirectoryReaderTests {
    @Test func flagsOddEntriesAndEscapesUndecodableNames() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-reader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/sub/deeper", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try TestFile.write(Array("12345".utf8), to: root + "/five.txt")
        try TestFile.write(Array("x".utf8), to: root + "/sub/deeper/x.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: root + "/missing")
        try FileManager.default.createSymbolicLink(atPath: root + "/loop-a", withDestinationPath: root + "/loop-b")
        try FileManager.default.createSymbolicLink(atPath: root + "/loop-b", withDestinationPath: root + "/loop-a")
        let rawName: [CChar] = Array((root + "/bad").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF), 0]
        let descriptor = open(rawName, O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0)
        close(descriptor)

        let listing = DirectoryReader.read(root)
        #expect(listing.error == nil)
        let kinds = Dictionary(uniqueKeysWithValues: listing.entries.map { ($0.name, $0.kind) })
        #expect(kinds == ["five.txt": .file, "sub": .directory, "dangling": .brokenSymlink, "loop-a": .symlinkLoop,
                          "loop-b": .symlinkLoop, "bad\\xFF": .file])
        #expect(listing.entries.first { $0.name == "five.txt" }?.size == 5)

        let collection = DirectoryReader.collectFiles(under: root + "/sub")
        #expect(collection.files.map(\.path) == [root + "/sub/deeper/x.txt"])
        #expect(collection.totalBytes == 1)
    }

    @Test func namesThatAreNotUTF8CanBeStatedEnteredAndCollected() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-reader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        func raw(_ bytes: [UInt8]) -> [CChar] { (Array(root.utf8) + [0x2F] + bytes + [0]).map { CChar(bitPattern: $0) } }
        let cafe = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)  // "café.txt" in Latin-1
        let descriptor = open(raw(cafe), O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0)
        #expect(write(descriptor, "12345", 5) == 5)
        close(descriptor)
        #expect(mkdir(raw([0x64, 0xFF]), 0o755) == 0)
        let inner = open(raw([0x64, 0xFF, 0x2F] + Array("inner.txt".utf8)), O_CREAT | O_WRONLY, 0o644)
        #expect(inner >= 0)
        close(inner)

        let listing = DirectoryReader.read(root)
        let file = try #require(listing.entries.first { $0.kind == .file })
        #expect(file.name == "caf\\xE9.txt")
        #expect(QueuedFile.capture(path: file.path).size == 5)
        let directory = try #require(listing.entries.first { $0.kind == .directory })
        #expect(directory.name == "d\\xFF")
        let inside = DirectoryReader.read(directory.path)
        #expect(inside.error == nil)
        #expect(inside.entries.map(\.name) == ["inner.txt"])

        let collection = DirectoryReader.collectFiles(under: root)
        #expect(Set(collection.files.map(\.path)) == [file.path, directory.path + "/inner.txt"])
        #expect(collection.files.allSatisfy { QueuedFile.capture(path: $0.path).size != nil })
        #expect(collection.unreadableCount == 0)
    }

    @Test("a file this user cannot read is flagged and left out of a folder's files",
          .enabled(if: getuid() != 0, "root reads a mode-000 file"))
    func unreadableFileIsFlagged() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-reader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try TestFile.write(Array("secret".utf8), to: root + "/locked.txt")
        try TestFile.write(Array("open".utf8), to: root + "/open.txt")
        chmod(root + "/locked.txt", 0)
        let entries = DirectoryReader.read(root).entries
        #expect(entries.first { $0.name == "locked.txt" }?.problem == "unreadable")
        #expect(entries.first { $0.name == "open.txt" }?.problem == nil)
        let collection = DirectoryReader.collectFiles(under: root)
        #expect(collection.files.map(\.path) == [root + "/open.txt"])
        #expect(collection.unreadableCount == 1)
    }

    @Test("a folder's files are named from its parent; hidden ones only when asked; a link up is not followed")
    func folderFilesKeepTheirShape() throws {
        let dir = TemporaryDirectory()
        let folder = try PhotoFolder(in: dir)
        let visible = DirectoryReader.collectFiles(under: folder.path)
        #expect(visible.files.compactMap(\.partFilename).sorted() == PhotoFolder.visibleNames)
        #expect(visible.files.first { $0.partFilename == "photos/link.txt" }?.size == 7)
        #expect(visible.files.allSatisfy { $0.path == dir.path($0.partFilename ?? "") })
        // Each keeps which file it is (a link's target's), as `stat` says, so a file replaced since is noticed.
        for file in visible.files {
            #expect(file.stamp?.identity != nil && file.stamp?.identity == FileStamp.current(of: file.path)?.stamp.identity, "\(file.path)")
        }
        let all = DirectoryReader.collectFiles(under: folder.path + "/", includesHidden: true)
        #expect(all.files.compactMap(\.partFilename).sorted() == (PhotoFolder.visibleNames + PhotoFolder.hiddenNames).sorted())
    }

    @Test func aMissingDirectoryIsAnErrorNotACrash() {
        let listing = DirectoryReader.read("/nonexistent-\(UUID().uuidString)")
        #expect(listing.entries.isEmpty)
        #expect(listing.error?.contains("No such file or directory") == true)
    }
}
