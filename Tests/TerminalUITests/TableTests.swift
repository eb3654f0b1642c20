import Testing
import TerminalUI
import TestSupport

@Suite("Table")
struct TableTests {
    let columns = [Table.Column("Name"), Table.Column("Size", width: .fixed(6), alignment: .right)]
    let rows: [[TextLine]] = [["a.txt", "1 KiB"], ["日本語.txt", "12 MiB"]]

    @Test func headerAndRows() {
        let table = Table(columns: columns, rows: rows, scroll: ListScroll(count: 2, viewportHeight: 2))
        let buffer = render(table, width: 16, height: 4)
        expectLines(buffer, [
            "Name        Size",
            "a.txt      1 KiB",
            "日本語.t… 12 MiB",
            "",
        ])
        expectStyle(buffer, in: Rect(x: 0, y: 0, width: 4, height: 1), Style(bold: true))
        expectStyle(buffer, in: Rect(x: 0, y: 1, width: 16, height: 1), Style(reverse: true))
        expectStyle(buffer, in: Rect(x: 0, y: 2, width: 16, height: 1), .plain)
    }

    @Test func scrollsBelowTheHeader() {
        let many = (1...5).map { [TextLine("row \($0)"), TextLine("\($0)")] }
        let table = Table(columns: columns, rows: many, scroll: ListScroll(count: 5, viewportHeight: 10, cursor: 4), showsHighlight: false)
        expectLines(render(table, width: 12, height: 3), ["Name    Size", "row 4      4", "row 5      5"])
        #expect(table.bodyHeight(in: Rect(x: 0, y: 0, width: 12, height: 3)) == 2)
    }

    @Test func withoutHeader() {
        let table = Table(columns: columns, rows: rows, showsHeader: false, showsHighlight: false)
        expectLines(render(table, width: 16, height: 1), ["a.txt      1 KiB"])
    }

    @Test func percentColumnsAndMissingCells() {
        let table = Table(
            columns: [.init("A", width: .percent(50)), .init("B", width: .fill()), .init("C", width: .fixed(2))],
            rows: [["left", "right"]],
            showsHighlight: false,
            columnSpacing: 0
        )
        #expect(table.columnAreas(in: Rect(x: 0, y: 0, width: 10, height: 2)).map(\.width) == [5, 3, 2])
        expectLines(render(table, width: 10, height: 2), ["A    B  C", "left ri…"])
    }

    @Test("too narrow: columns shrink from the right, nothing crashes")
    func narrow() {
        let table = Table(columns: columns, rows: rows)
        expectLines(render(table, width: 3, height: 2), [" S…", " 1…"])
        expectLines(render(table, width: 1, height: 1), [""])
    }
}
