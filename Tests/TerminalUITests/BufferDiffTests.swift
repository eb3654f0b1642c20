import Testing
import TerminalUI

@Suite("CellBuffer diff")
struct BufferDiffTests {
    @Test func identicalBuffersHaveNoChanges() {
        var buffer = CellBuffer(width: 5, height: 2)
        buffer.put("hello", at: .zero)
        let diff = buffer.diff(from: buffer)
        #expect(diff.isEmpty)
        #expect(diff.changes == [])
    }

    @Test("no previous frame means a full repaint of every row")
    func firstFrame() {
        var buffer = CellBuffer(width: 3, height: 2)
        buffer.put("abc", at: .zero)
        let diff = buffer.diff(from: nil)
        #expect(diff.isFullRepaint)
        #expect(diff.changes.map(\.y) == [0, 1])
        #expect(diff.changes.map(\.text) == ["abc", "   "])
        #expect(diff.cellCount == 6)
    }

    @Test("a size change means a full repaint")
    func resized() {
        let old = CellBuffer(width: 3, height: 2)
        let new = CellBuffer(width: 4, height: 2)
        let diff = new.diff(from: old)
        #expect(diff.isFullRepaint)
        #expect(diff.changes.count == 2)
        #expect(diff.changes.allSatisfy { $0.cells.count == 4 })
        #expect(CellBuffer(width: 0, height: 0).diff(from: old).changes == [])
    }

    @Test("changed cells come as runs per row")
    func runs() {
        let old = CellBuffer(width: 8, height: 2)
        var new = old
        new.put("ab", at: Point(x: 1, y: 0))
        new.put("c", at: Point(x: 6, y: 0))
        new.put("d", at: Point(x: 0, y: 1))
        let diff = new.diff(from: old)
        #expect(!diff.isFullRepaint)
        #expect(diff.changes == [
            CellChange(x: 1, y: 0, cells: [Cell("a"), Cell("b")]),
            CellChange(x: 6, y: 0, cells: [Cell("c")]),
            CellChange(x: 0, y: 1, cells: [Cell("d")]),
        ])
    }

    @Test("a style change alone is a change")
    func styleOnly() {
        var old = CellBuffer(width: 3, height: 1)
        old.put("abc", at: .zero)
        var new = old
        new.setStyle(Style(reverse: true), in: Rect(x: 1, y: 0, width: 1, height: 1))
        let diff = new.diff(from: old)
        #expect(diff.changes.count == 1)
        #expect(diff.changes[0].x == 1)
        #expect(diff.changes[0].cells[0].style.reverse)
    }

    @Test("runs include both halves of a wide character")
    func wideCharacters() {
        var old = CellBuffer(width: 4, height: 1)
        old.put("日本", at: .zero)
        var new = old
        new.put("語", at: .zero)
        let diff = new.diff(from: old)
        #expect(diff.changes.count == 1)
        #expect(diff.changes[0].x == 0)
        #expect(diff.changes[0].cells.count == 2)
        #expect(diff.changes[0].text == "語")
    }

    @Test("a run never starts on a continuation cell")
    func startsOnLead() {
        var old = CellBuffer(width: 4, height: 1)
        old.put("日ab", at: .zero)
        var new = old
        new.patchStyle(Style(underline: true), in: Rect(x: 1, y: 0, width: 2, height: 1))
        let diff = new.diff(from: old)
        #expect(diff.changes.count == 1)
        #expect(diff.changes[0].x == 0)
        #expect(diff.changes[0].text == "日a")
    }

    @Test("replacing narrow cells by a wide one and back")
    func narrowToWide() {
        var old = CellBuffer(width: 4, height: 1)
        old.put("abcd", at: .zero)
        var new = old
        new.put("日", at: Point(x: 1, y: 0))
        let forward = new.diff(from: old)
        #expect(forward.changes == [CellChange(x: 1, y: 0, cells: [Cell("日"), .continuation(style: .plain)])])
        let backward = old.diff(from: new)
        #expect(backward.changes.map(\.text) == ["bc"])
        #expect(backward.changes.map(\.x) == [1])
    }
}
