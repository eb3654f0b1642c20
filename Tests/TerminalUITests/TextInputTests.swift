import Testing
import TerminalUI
import TestSupport

@Suite("TextInput")
struct TextInputTests {
    @Test func showsTextAndCursor() {
        let buffer = render(TextInput(editor: LineEditor(text: "hello")), width: 10, height: 1)
        expectLines(buffer, ["hello"])
        #expect(buffer.cursor == Point(x: 5, y: 0))
    }

    @Test func placeholder() {
        let buffer = render(TextInput(editor: LineEditor(), placeholder: "https://example.com/upload"), in: Rect(x: 2, y: 1, width: 10, height: 1), width: 12, height: 2)
        expectLines(buffer, ["", "  https://e…"])
        expectStyle(buffer, in: Rect(x: 2, y: 1, width: 10, height: 1), Style(dim: true))
        #expect(buffer.cursor == Point(x: 2, y: 1))
    }

    @Test func masked() {
        let buffer = render(TextInput(editor: LineEditor(text: "pässword"), isMasked: true), width: 10, height: 1)
        expectLines(buffer, ["••••••••"])
        #expect(buffer.cursor == Point(x: 8, y: 0))
    }

    @Test func unfocusedHasNoCursor() {
        let buffer = render(TextInput(editor: LineEditor(text: "hi"), isFocused: false), width: 4, height: 1)
        expectLines(buffer, ["hi"])
        #expect(buffer.cursor == nil)
    }

    @Test("long text scrolls so the cursor stays visible")
    func scrolls() {
        var editor = LineEditor(text: "hello world")
        expectLines(render(TextInput(editor: editor), width: 5, height: 1), ["orld"])
        editor.moveToStart()
        let buffer = render(TextInput(editor: editor), width: 5, height: 1)
        expectLines(buffer, ["hello"])
        #expect(buffer.cursor == Point(x: 0, y: 0))
    }

    @Test("a wide character that does not fit at the right edge is not drawn")
    func wideAtEdge() {
        var editor = LineEditor(text: "ab日本")
        editor.moveToStart()
        expectLines(render(TextInput(editor: editor), width: 5, height: 1), ["ab日"])
    }

    @Test func fieldStyleFillsTheRow() {
        let buffer = render(TextInput(editor: LineEditor(text: "a"), style: Style(underline: true)), width: 4, height: 2)
        expectStyle(buffer, in: Rect(x: 0, y: 0, width: 4, height: 1), Style(underline: true))
        expectStyle(buffer, in: Rect(x: 0, y: 1, width: 4, height: 1), .plain)
    }
}
