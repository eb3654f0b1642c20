import Testing
import TerminalUI
import TestSupport

@Suite("TextLine and Paragraph")
struct TextLineTests {
    @Test func alignment() {
        expectLines(render(TextLine("hello"), width: 10, height: 1), ["hello"])
        expectLines(render(TextLine("hello", alignment: .right), width: 10, height: 1), ["     hello"])
        expectLines(render(TextLine("hello", alignment: .center), width: 10, height: 1), ["  hello"])
    }

    @Test func truncatesWithEllipsis() {
        expectLines(render(TextLine("hello world"), width: 8, height: 1), ["hello w…"])
        expectLines(render(TextLine("hello"), width: 1, height: 1), ["…"])
    }

    @Test("the ellipsis takes the style of the span that was cut")
    func truncatesStyledSpans() {
        let red = Style(foreground: .red)
        let blue = Style(foreground: .blue)
        let buffer = render(TextLine([Span("abc", style: red), Span("defgh", style: blue)]), width: 6, height: 1)
        expectLines(buffer, ["abcde…"])
        expectStyle(buffer, in: Rect(x: 0, y: 0, width: 3, height: 1), red)
        expectStyle(buffer, in: Rect(x: 3, y: 0, width: 3, height: 1), blue)
    }

    @Test("wide characters at the right edge")
    func wideAtEdge() {
        expectLines(render(TextLine("ab日本"), width: 5, height: 1), ["ab日…"])
        expectLines(render(TextLine([Span("ab日本")], ellipsis: ""), width: 5, height: 1), ["ab日 "])
        expectLines(render(TextLine("日本語"), width: 3, height: 1), ["日…"])
        expectLines(render(TextLine("日本語"), width: 1, height: 1), ["…"])
    }

    @Test func onlyTheFirstRowIsUsed() {
        var buffer = CellBuffer(width: 4, height: 2)
        buffer.fill(buffer.area, with: Cell("x"))
        TextLine("ab").render(in: Rect(x: 1, y: 0, width: 2, height: 2), buffer: &buffer)
        expectLines(buffer, ["xabx", "xxxx"])
    }

    @Test func wrapKeepsStyles() {
        let bold = Style(bold: true)
        let lines = TextLine([Span("one "), Span("two three", style: bold), Span(" four")]).wrapped(toWidth: 9)
        #expect(lines.map(\.plainText) == ["one two", "three", "four"])
        #expect(lines[0].spans == [Span("one "), Span("two", style: bold)])
        #expect(lines[1].spans == [Span("three", style: bold)])
        #expect(TextLine("").wrapped(toWidth: 5).map(\.plainText) == [""])
        #expect(TextLine("abc").wrapped(toWidth: 0).isEmpty)
        #expect(TextLine("日本語").wrapped(toWidth: 3).map(\.plainText) == ["日", "本", "語"])
    }

    @Test func paragraphLines() {
        expectLines(render(Paragraph("line one\nline two"), width: 10, height: 3), ["line one", "line two", ""])
        expectLines(render(Paragraph("the quick brown fox jumps"), width: 6, height: 1), ["the q…"])
    }

    @Test func paragraphWrapsAndScrolls() {
        var paragraph = Paragraph("the quick brown fox jumps", wrap: true)
        expectLines(render(paragraph, width: 10, height: 3), ["the quick", "brown fox", "jumps"])
        #expect(paragraph.layoutLines(width: 10).count == 3)
        paragraph.scroll = 1
        expectLines(render(paragraph, width: 10, height: 3), ["brown fox", "jumps", ""])
        expectLines(render(paragraph, width: 10, height: 1), ["brown fox"])
    }

    @Test func paragraphBackground() {
        let buffer = render(Paragraph([TextLine("a")], background: Style(background: .blue)), width: 3, height: 2)
        expectStyle(buffer, in: buffer.area, Style(background: .blue))
    }
}
