import Testing
import TerminalUI

@Suite("Style and Color")
struct StyleTests {
    @Test func builders() {
        let style = Style.plain.fg(.cyan).bg(.black).bolded().underlined().reversed().dimmed()
        #expect(style == Style(foreground: .cyan, background: .black, bold: true, underline: true, reverse: true, dim: true))
        #expect(style.bolded(false).bold == false)
        #expect(Style.plain.isPlain)
    }

    @Test("patching keeps colors the overlay leaves default and adds attributes")
    func patched() {
        let base = Style(foreground: .red, background: .blue, underline: true)
        #expect(base.patched(with: Style(reverse: true)) == Style(foreground: .red, background: .blue, underline: true, reverse: true))
        #expect(base.patched(with: Style(foreground: .green)) == Style(foreground: .green, background: .blue, underline: true))
    }

    @Test func colors() {
        #expect(Color.default.ansiIndex == nil)
        #expect(Color.red.ansiIndex == 1 && Color.brightWhite.ansiIndex == 15)
        #expect(Color.brightRed.isBright && !Color.red.isBright)
        #expect(Color.brightRed.basic == .red && Color.blue.basic == .blue)
        #expect(Color.gray == .brightBlack)
        #expect(Color.allCases.count == 17)
    }
}
