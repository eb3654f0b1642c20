import Testing
import TerminalUI
import TestSupport

@Suite("CellBuffer")
struct CellBufferTests {
    @Test func newBufferIsBlank() {
        let buffer = CellBuffer(width: 3, height: 2)
        expectLines(buffer, ["   ", "   "])
        #expect(buffer.cursor == nil)
        #expect(buffer[x: 2, y: 1] == .blank)
        #expect(buffer.cell(at: Point(x: 3, y: 0)) == nil)
    }

    @Test func zeroSizeBuffer() {
        var buffer = CellBuffer(width: 0, height: 0)
        #expect(buffer.lines() == [])
        #expect(buffer.put("abc", at: .zero) == 0)
        buffer.fill(Rect(width: 5, height: 5), style: Style(bold: true))
        #expect(CellBuffer(width: 0, height: 2).lines() == ["", ""])
        #expect(CellBuffer(width: -4, height: 2).size == Size(width: 0, height: 2))
    }

    @Test func putText() {
        var buffer = CellBuffer(width: 8, height: 2)
        #expect(buffer.put("hello", at: Point(x: 1, y: 0)) == 5)
        #expect(buffer.put("world", at: Point(x: 0, y: 1), maxWidth: 3) == 3)
        expectLines(buffer, [" hello", "wor"])
    }

    @Test func putClipsAtTheRightEdgeAndOutside() {
        var buffer = CellBuffer(width: 4, height: 1)
        #expect(buffer.put("abcdef", at: Point(x: 1, y: 0)) == 3)
        #expect(buffer.put("zz", at: Point(x: 9, y: 0)) == 0)
        #expect(buffer.put("zz", at: Point(x: 0, y: 1)) == 0)
        #expect(buffer.put("zz", at: Point(x: 0, y: -1)) == 0)
        expectLines(buffer, [" abc"])
    }

    @Test("text left of the buffer loses its hidden columns")
    func putAtNegativeColumn() {
        var buffer = CellBuffer(width: 4, height: 2)
        buffer.put("abc", at: Point(x: -1, y: 0))
        buffer.put("日x", at: Point(x: -1, y: 1))
        expectLines(buffer, ["bc", " x"])
    }

    @Test("wide characters take two cells; the second is a continuation")
    func wideCharacters() {
        var buffer = CellBuffer(width: 5, height: 1)
        #expect(buffer.put("a日b", at: .zero) == 4)
        expectLines(buffer, ["a日b "])
        #expect(buffer[x: 1, y: 0].width == 2)
        #expect(buffer[x: 2, y: 0].isContinuation)
        #expect(!buffer[x: 3, y: 0].isContinuation)
    }

    @Test("a wide character that does not fit at the right edge becomes a space")
    func wideAtRightEdge() {
        var buffer = CellBuffer(width: 5, height: 2)
        buffer.fill(buffer.area, with: Cell("."))
        #expect(buffer.put("ab日本", at: .zero, style: Style(bold: true)) == 5)
        #expect(buffer.put("日本", at: Point(x: 0, y: 1), maxWidth: 3) == 3)
        expectLines(buffer, ["ab日 ", "日 .."])
        #expect(buffer[x: 4, y: 0] == .blank(style: Style(bold: true)))
    }

    @Test("overwriting either half of a wide character blanks the other half")
    func overwriteHalves() {
        var buffer = CellBuffer(width: 4, height: 3)
        for row in 0..<3 { buffer.put("日本", at: Point(x: 0, y: row)) }
        buffer.put("x", at: Point(x: 1, y: 0))
        buffer.put("x", at: Point(x: 2, y: 1))
        buffer.put("語", at: Point(x: 1, y: 2))
        expectLines(buffer, [" x本", "日x ", " 語 "])
        #expect(buffer.cells.filter(\.isContinuation).count == 3)
    }

    @Test("control characters and lone combining marks are skipped")
    func zeroWidthSkipped() {
        var buffer = CellBuffer(width: 6, height: 1)
        #expect(buffer.put("a\u{1B}b\tc", at: .zero) == 3)
        buffer.put("\u{301}d", at: Point(x: 3, y: 0))
        expectLines(buffer, ["abcd"])
    }

    @Test("combining sequences, ZWJ sequences and flags stay one cell")
    func graphemesStayWhole() {
        var buffer = CellBuffer(width: 8, height: 1)
        #expect(buffer.put("e\u{301}👨\u{200D}👩\u{200D}👧🇯🇵", at: .zero) == 5)
        #expect(buffer[x: 0, y: 0].content == "e\u{301}")
        #expect(buffer[x: 1, y: 0].content == "👨\u{200D}👩\u{200D}👧")
        #expect(buffer[x: 3, y: 0].content == "🇯🇵")
    }

    @Test func putSpans() {
        var buffer = CellBuffer(width: 8, height: 1)
        let red = Style(foreground: .red)
        #expect(buffer.put([Span("ab"), Span("cdef", style: red), Span("ghij")], at: Point(x: 1, y: 0), maxWidth: 6) == 6)
        expectLines(buffer, [" abcdef"])
        expectStyle(buffer, in: Rect(x: 3, y: 0, width: 4, height: 1), red)
        expectStyle(buffer, in: Rect(x: 7, y: 0, width: 1, height: 1), .plain)
    }

    @Test func fillAndStyle() {
        var buffer = CellBuffer(width: 4, height: 3)
        buffer.put("abcd", at: Point(x: 0, y: 1))
        buffer.fill(Rect(x: 1, y: 0, width: 2, height: 2), with: Cell("#"))
        expectLines(buffer, [" ##", "a##d", ""])
        buffer.setStyle(Style(bold: true), in: Rect(x: 0, y: 1, width: 9, height: 1))
        expectStyle(buffer, in: Rect(x: 0, y: 1, width: 4, height: 1), Style(bold: true))
        buffer.patchStyle(Style(foreground: .blue), in: Rect(x: 3, y: 1, width: 1, height: 1))
        expectStyle(buffer, in: Rect(x: 3, y: 1, width: 1, height: 1), Style(foreground: .blue, bold: true))
        expectLines(buffer, [" ##", "a##d", ""])
    }

    @Test("filling with a wide cell lays it every two columns")
    func fillWide() {
        var buffer = CellBuffer(width: 5, height: 1)
        buffer.fill(buffer.area, with: Cell("日"))
        expectLines(buffer, ["日日 "])
    }

    @Test func setCell() {
        var buffer = CellBuffer(width: 3, height: 1)
        buffer.set(Cell("日"), at: Point(x: 2, y: 0))
        buffer.set(Cell("z"), at: Point(x: 5, y: 0))
        buffer.set(.continuation(style: .plain), at: Point(x: 0, y: 0))
        expectLines(buffer, [""])
        #expect(buffer.cells.filter(\.isContinuation).isEmpty)
        #expect(Cell("\u{7}").content == " ", "a zero-width grapheme is stored as a blank")
    }
}
