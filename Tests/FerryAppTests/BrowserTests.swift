import FerryApp
import Foundation
import TerminalUI
import Testing
import UploadModel

@Suite("File browser")
struct BrowserTests {
    @Test("numbers in names sort by value, as file managers sort them")
    func namesSortNaturally() {
        let names = ["data_10.bin", "data_2.bin", "data_1.bin", "Data_3.bin", "data_02.bin", "data_100.bin", "data.bin", "x9", "x10y"]
        let app = AppHarness(directories: ["/data": names.map { file($0) }])
        #expect(app.state.browser.shownEntries.map(\.name)
            == ["data.bin", "data_1.bin", "data_2.bin", "data_02.bin", "Data_3.bin", "data_10.bin", "data_100.bin", "x9", "x10y"])
    }

    @Test("a folder with selected files under it shows a mark, and Space on a folder moves down as on a file")
    func selectedFoldersShowAMarkAndSpaceMovesDown() {
        var app = AppHarness(directories: AppUpdateTests.tree)
        app.collections["/data/photos"] = FileCollection(directory: "/data/photos", files: [
            QueuedFile(path: "/data/photos/a.png", size: 10, modificationTimeNanoseconds: 0),
            QueuedFile(path: "/data/photos/b.png", size: 20, modificationTimeNanoseconds: 0),
        ])
        app.type("j ")
        #expect(app.state.browser.selection.count == 2)
        #expect(app.state.browser.current?.name == "alpha.txt", "Space moved down from photos")
        let lines = app.screen().lines()
        #expect(lines[3].hasPrefix("✓ photos/"), "\(lines[3])")
        #expect(lines[2].hasPrefix("  docs/"), "\(lines[2])")
        app.type("k ")
        #expect(app.state.browser.selection.isEmpty)
        #expect(!app.screen().lines()[3].hasPrefix("✓"))
    }

    @Test("a file that cannot be read is flagged like an unreadable folder, and cannot be selected")
    func unreadableFileIsFlagged() {
        let locked = BrowserEntry(name: "locked.txt", path: "/data/locked.txt", kind: .file, size: 5, isUnreadable: true)
        var app = AppHarness(directories: ["/data": [locked, file("open.txt")]])
        #expect(app.screen().lines()[2].contains("locked.txt [unreadable]"), "\(app.screen().lines()[2])")
        app.type(" ")
        #expect(app.state.browser.selection.isEmpty)
        #expect(app.state.notice == "locked.txt: unreadable")
        app.type("a")
        #expect(app.state.browser.selectedFiles.map(\.path) == ["/data/open.txt"])
    }

    @Test("a folder that cannot be opened at start shows the error and how to get out, not \"(empty folder)\"")
    func missingStartFolderShowsOnlyTheError() {
        let app = AppHarness(directory: "/nonexistent", directories: AppUpdateTests.tree)
        let lines = app.screen().lines()
        #expect(lines[1].contains("cannot open /nonexistent"))
        #expect(!lines.joined().contains("(empty folder)"), "\(lines.joined(separator: "\n"))")
        #expect(lines[2].contains("h/← opens the parent folder"), "\(lines[2])")
    }

    @Test("Space and Enter on an empty filter result say that the filter matched nothing")
    func emptyFilterResultSaysSo() {
        var app = AppHarness(directories: AppUpdateTests.tree)
        app.type("/zzz")
        app.press(.enter)
        app.type(" ")
        #expect(app.state.notice == "nothing matches the filter \"zzz\" (Esc clears it)")
        app.press(.right)
        #expect(app.state.notice == "nothing matches the filter \"zzz\" (Esc clears it)")
        var empty = AppHarness(directories: ["/data": []])
        empty.type(" ")
        #expect(empty.state.notice == "the folder is empty")
    }
}

@Suite("File browser refresh")
struct BrowserRefreshTests {
    @Test("a change in the folder shown reloads it: new files appear, renamed ones update, the cursor stays on its entry")
    func changeReloadsTheFolderKeepingTheCursor() {
        var app = AppHarness(directories: ["/data": [file("b.txt"), file("c.txt"), file("old.txt")]])
        app.type("jj")
        #expect(app.state.browser.current?.name == "old.txt")
        app.directories["/data"] = [file("a.txt"), file("b.txt"), file("c.txt"), file("new.txt")]
        let commands = app.send(.directoryChanged("/data"))
        #expect(commands == [.loadDirectory("/data", focusName: "old.txt")])
        #expect(app.state.browser.shownEntries.map(\.name) == ["a.txt", "b.txt", "c.txt", "new.txt"])
        app.type("k")
        app.directories["/data"]?.append(file("d.txt"))
        app.send(.directoryChanged("/data"))
        #expect(app.state.browser.current?.name == "b.txt", "the cursor follows its entry, not its row")
        #expect(app.send(.directoryChanged("/elsewhere")).isEmpty, "a folder no longer shown is ignored")
    }

    @Test("r reloads the folder; a selected file that is gone from it is deselected, new files join `a`")
    func refreshKeyReloadsAndDropsVanishedSelections() {
        var app = AppHarness(directories: ["/data": [file("a.txt"), file("gone.txt")]])
        app.type("a")
        #expect(app.state.browser.selection.count == 2)
        app.directories["/data"] = [file("a.txt"), file("renamed.txt"), file("added.txt")]
        #expect(app.type("r") == [.loadDirectory("/data", focusName: "a.txt")])
        #expect(app.state.browser.selectedFiles.map(\.path) == ["/data/a.txt"])
        app.type("a")
        #expect(app.state.browser.selection.count == 3)
    }

    @Test("a folder part of which is selected looks partly selected, with a count; one selected whole shows ✓")
    func partlySelectedFolder() {
        var app = AppHarness(directories: AppUpdateTests.tree)
        app.collections["/data/photos"] = FileCollection(directory: "/data/photos", files: [
            QueuedFile(path: "/data/photos/a.png", size: 10, modificationTimeNanoseconds: 0),
            QueuedFile(path: "/data/photos/b.png", size: 20, modificationTimeNanoseconds: 0),
        ])
        app.type("j ")
        #expect(app.screen().lines().contains { $0.hasPrefix("✓ photos/") })
        app.type("kl ")
        app.press(.backspace)
        let row = app.screen().lines().first { $0.contains("photos/") } ?? ""
        #expect(row.hasPrefix("◐ photos/ (1 selected)"), "\(row)")
    }
}
