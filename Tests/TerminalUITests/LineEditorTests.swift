import Testing
import TerminalUI

@Suite("LineEditor")
struct LineEditorTests {
    @Test func insertAndDelete() {
        var editor = LineEditor(text: "abc")
        #expect(editor.cursor == 3)
        editor.insert("d")
        editor.moveLeft()
        editor.moveLeft()
        editor.insert("X")
        #expect(editor.text == "abXcd" && editor.cursor == 3)
        editor.backspace()
        #expect(editor.text == "abcd" && editor.cursor == 2)
        editor.deleteForward()
        #expect(editor.text == "abd" && editor.cursor == 2)
        editor.moveToStart()
        editor.backspace()
        editor.moveLeft()
        #expect(editor.text == "abd" && editor.cursor == 0)
        editor.moveToEnd()
        editor.deleteForward()
        editor.moveRight()
        #expect(editor.text == "abd" && editor.cursor == 3)
    }

    @Test func killing() {
        var editor = LineEditor(text: "hello world")
        for _ in 0..<6 { editor.moveLeft() }
        editor.killToEnd()
        #expect(editor.text == "hello" && editor.cursor == 5)
        editor = LineEditor(text: "hello world")
        for _ in 0..<6 { editor.moveLeft() }
        editor.killToStart()
        #expect(editor.text == " world" && editor.cursor == 0)
    }

    @Test func words() {
        var editor = LineEditor(text: "hello big  world")
        editor.deleteWordBackward()
        #expect(editor.text == "hello big  ")
        editor.deleteWordBackward()
        #expect(editor.text == "hello ")
        editor.deleteWordBackward()
        #expect(editor.text == "" && editor.cursor == 0)
        editor.text = "one two three"
        editor.moveWordLeft()
        #expect(editor.cursor == 8)
        editor.moveWordLeft()
        #expect(editor.cursor == 4)
        editor.moveWordRight()
        #expect(editor.cursor == 7)
        editor.moveToStart()
        editor.moveWordRight()
        #expect(editor.cursor == 3)
    }

    @Test("text is edited by grapheme")
    func graphemes() {
        var editor = LineEditor(text: "日本")
        editor.insert("e")
        editor.insert("\u{301}")
        #expect(editor.graphemes.count == 3)
        #expect(editor.text == "日本e\u{301}")
        editor.backspace()
        #expect(editor.text == "日本")
        editor.insert("👨")
        editor.insert("\u{200D}")
        editor.insert("👩")
        #expect(editor.graphemes.count == 3 && editor.cursor == 3)
        editor.insert("🇯")
        editor.insert("🇵")
        #expect(editor.graphemes.last == "🇯🇵")
        editor.moveToStart()
        editor.insert("\u{301}")
        #expect(editor.graphemes.count == 4 && editor.cursor == 0, "a lone combining mark at the start is dropped")
    }

    @Test func controlCharactersAreDropped() {
        var editor = LineEditor()
        editor.insert("a\tb\u{1B}c\n")
        #expect(editor.text == "abc")
        editor.text = "x\ry"
        #expect(editor.text == "xy" && editor.cursor == 2)
    }

    @Test func keys() {
        var editor = LineEditor(text: "hello")
        func press(_ event: KeyEvent) -> Bool { editor.handle(event) }
        #expect(press(.key(.home)))
        #expect(press(.char("¡")))
        #expect(press(.key(.end)))
        #expect(press(.key(.backspace)))
        #expect(editor.text == "¡hell")
        #expect(press(.key(.ctrl("a"))) && editor.cursor == 0)
        #expect(press(.key(.ctrl("e"))) && editor.cursor == 5)
        #expect(press(.key(.left)) && press(.key(.ctrl("k"))))
        #expect(editor.text == "¡hel")
        #expect(press(.key(.ctrl("u"))) && editor.text == "")
        for unused in [KeyEvent.key(.enter), .key(.tab), .key(.escape), .key(.up), .resize(Size(width: 1, height: 1))] {
            #expect(!press(unused))
        }
        editor.text = "a b"
        #expect(press(.key(.ctrl("w"))) && editor.text == "a ")
        #expect(press(.alt(.character("b"))) && editor.cursor == 0)
    }

    @Test("the viewport keeps the cursor visible and scrolls as little as needed")
    func viewport() {
        var editor = LineEditor(text: "abcdefghij")
        var view = editor.viewport(width: 5)
        #expect(view.text == "ghij" && view.cursorColumn == 4 && view.start == 6)
        editor.scrollToCursor(width: 5)
        #expect(editor.scrollOffset == 6)
        editor.moveLeft()
        editor.moveLeft()
        view = editor.viewport(width: 5)
        #expect(view.text == "ghij" && view.cursorColumn == 2)
        for _ in 0..<3 { editor.moveLeft() }
        view = editor.viewport(width: 5)
        #expect(view.text == "fghij" && view.cursorColumn == 0 && view.start == 5)
        editor.moveToStart()
        view = editor.viewport(width: 5)
        #expect(view.text == "abcde" && view.cursorColumn == 0)
    }

    @Test("deleting at the end scrolls back so no room is wasted")
    func scrollsBack() {
        var editor = LineEditor(text: "abcdefghij")
        editor.scrollToCursor(width: 5)
        for _ in 0..<4 { editor.backspace() }
        let view = editor.viewport(width: 5)
        #expect(view.text == "cdef" && view.cursorColumn == 4)
    }

    @Test func viewportWithWideCharacters() {
        let editor = LineEditor(text: "日本語テキスト")
        let view = editor.viewport(width: 6)
        #expect(view.text == "スト" && view.cursorColumn == 4)
        var start = editor
        start.moveToStart()
        #expect(start.viewport(width: 5).text == "日本")
    }

    @Test func maskedViewport() {
        let editor = LineEditor(text: "日本secret")
        let view = editor.viewport(width: 10, masked: true)
        #expect(view.text == "••••••••" && view.cursorColumn == 8)
        #expect(editor.viewport(width: 0).text == "")
    }
}
