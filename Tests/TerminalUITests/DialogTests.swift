import Testing
import TerminalUI
import TestSupport

@Suite("Dialog")
struct DialogTests {
    @Test func centeredBoxWithButtons() {
        let dialog = Dialog(title: "Quit?", message: "Really quit?", buttons: ["Yes", "No"], selectedButton: 1)
        let buffer = render(dialog, width: 30, height: 7)
        expectLines(buffer, [
            "",
            "     ┌ Quit? ──────────┐",
            "     │ Really quit?    │",
            "     │                 │",
            "     │ [ Yes ]  [ No ] │",
            "     └─────────────────┘",
            "",
        ])
        #expect(dialog.frame(in: buffer.area) == Rect(x: 5, y: 1, width: 19, height: 5))
        expectStyle(buffer, in: Rect(x: 16, y: 4, width: 6, height: 1), Style(reverse: true))
        expectStyle(buffer, in: Rect(x: 7, y: 4, width: 7, height: 1), .plain)
    }

    @Test func wrapsLongMessages() {
        let dialog = Dialog(title: "Note", message: "one two three four five six", maxWidth: 20)
        expectLines(render(dialog, width: 20, height: 6), [
            "┌ Note ────────────┐",
            "│ one two three    │",
            "│ four five six    │",
            "│                  │",
            "│      [ OK ]      │",
            "└──────────────────┘",
        ])
    }

    @Test("the box clears what is under it")
    func clearsBackground() {
        var buffer = CellBuffer(width: 12, height: 5)
        buffer.fill(buffer.area, with: Cell("x"))
        Dialog(title: "", message: "hi", buttons: []).render(in: buffer.area, buffer: &buffer)
        expectLines(buffer, [
            "xxxxxxxxxxxx",
            "xxx┌────┐xxx",
            "xxx│ hi │xxx",
            "xxx└────┘xxx",
            "xxxxxxxxxxxx",
        ])
    }

    @Test("in a tiny area the buttons win over the message")
    func tiny() {
        let dialog = Dialog(title: "T", message: "message", buttons: ["OK"])
        expectLines(render(dialog, width: 10, height: 3), [
            "┌ T ─────┐",
            "│ [ OK ] │",
            "└────────┘",
        ])
        expectLines(render(dialog, width: 2, height: 2), ["┌┐", "└┘"])
    }
}
