import TerminalUI
import Testing

/// OSC 52: what the backend writes for `y`.
@Suite("OSC 52 clipboard sequence")
struct ClipboardSequenceTests {
    @Test("ESC ] 52 ; c ; base64 of the UTF-8 text, then BEL")
    func sequence() {
        #expect(ClipboardSequence.copying("curl 'x'") == Array("\u{1B}]52;c;Y3VybCAneCc=\u{07}".utf8))
        #expect(ClipboardSequence.copying("é") == Array("\u{1B}]52;c;w6k=\u{07}".utf8))
        #expect(ClipboardSequence.copying("") == Array("\u{1B}]52;c;\u{07}".utf8))
    }
}
