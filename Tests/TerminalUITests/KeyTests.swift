import Testing
import TerminalUI

@Suite("Keys")
struct KeyTests {
    @Test(arguments: [
        (UInt32(1), Key.ctrl("a")), (3, .ctrl("c")), (21, .ctrl("u")), (26, .ctrl("z")),
        (9, .tab), (10, .enter), (13, .enter), (8, .backspace), (127, .backspace), (27, .escape),
        (0, .ctrl(" ")), (28, .ctrl("\\")), (31, .ctrl("_")),
        (0x20, .character(" ")), (0x41, .character("A")), (0x65E5, .character("日")), (0x1F600, .character("😀")),
    ])
    func decodesCodes(code: UInt32, key: Key) {
        #expect(Key(code: code) == key)
    }

    @Test func rejectsNonCharacters() {
        #expect(Key(code: 0x85) == nil)
        #expect(Key(code: 0xD800) == nil)
        #expect(Key(code: 0x110000) == nil)
    }

    @Test func displayNames() {
        #expect(Key.ctrl("u").displayName == "Ctrl-U")
        #expect(Key.character(" ").displayName == "Space")
        #expect(Key.function(5).displayName == "F5")
        #expect(Key.backTab.displayName == "Shift-Tab")
        #expect(Key.pageDown.displayName == "PgDn")
        #expect(KeyEvent.alt(.character("x")).displayName == "Alt-x")
        #expect(KeyEvent.resize(Size(width: 80, height: 24)).description == "resize 80x24")
    }

    @Test("events work as dictionary keys for bindings")
    func bindings() {
        let bindings: [KeyEvent: String] = [.char("q"): "quit", .key(.ctrl("c")): "quit", .alt(.enter): "send"]
        #expect(bindings[.key(.character("q"))] == "quit")
        #expect(bindings[.alt(.enter)] == "send")
        #expect(bindings[.key(.enter)] == nil)
        #expect(KeyEvent.alt(.up).key == .up)
        #expect(KeyEvent.resize(.zero).key == nil)
    }
}
