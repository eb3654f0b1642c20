import FerryRuntime
import Foundation
import Testing
import TestSupport

@Suite("Directory watcher")
struct DirectoryWatcherTests {
    @Test("reports files created, renamed and removed in the watched folder, once, and nothing from a folder no longer watched")
    func reportsChangesOfTheWatchedFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/other", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = DirectoryWatcher()
        watcher.watch(root)
        #expect(watcher.directory == root)
        #expect(!watcher.takeChanges())
        try TestFile.write(Array("x".utf8), to: root + "/new.txt")
        #expect(watcher.takeChanges())
        #expect(!watcher.takeChanges(), "each change is reported once")
        try FileManager.default.moveItem(atPath: root + "/new.txt", toPath: root + "/renamed.txt")
        #expect(watcher.takeChanges())
        try FileManager.default.removeItem(atPath: root + "/renamed.txt")
        #expect(watcher.takeChanges())
        watcher.watch(root + "/other")
        try TestFile.write(Array("x".utf8), to: root + "/ignored.txt")
        #expect(!watcher.takeChanges())
        try TestFile.write(Array("x".utf8), to: root + "/other/seen.txt")
        #expect(watcher.takeChanges())
    }
}
