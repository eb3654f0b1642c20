import Testing
import TerminalUI
import TestSupport

@Suite("ProgressBar")
struct ProgressBarTests {
    @Test func wholeCells() {
        expectLines(render(ProgressBar(fraction: 0.5), width: 10, height: 1), ["█████"])
        expectLines(render(ProgressBar(fraction: 1), width: 4, height: 1), ["████"])
        expectLines(render(ProgressBar(fraction: 0), width: 4, height: 1), [""])
    }

    @Test("partial cells are drawn in eighths")
    func eighths() {
        expectLines(render(ProgressBar(fraction: 0.55), width: 10, height: 1), ["█████▌"])
        expectLines(render(ProgressBar(fraction: 1.0 / 16), width: 2, height: 1), ["▏"])
        let glyphs = (1...8).map { ProgressBar(fraction: Double($0) / 8).barText(width: 1).filled }
        #expect(glyphs == ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"])
    }

    @Test func label() {
        let buffer = render(ProgressBar(fraction: 0.42, label: "42%", style: Style(foreground: .green)), width: 10, height: 1)
        expectLines(buffer, ["██▌    42%"])
        expectStyle(buffer, in: Rect(x: 0, y: 0, width: 3, height: 1), Style(foreground: .green))
        expectStyle(buffer, in: Rect(x: 3, y: 0, width: 7, height: 1), .plain)
    }

    @Test func ascii() {
        expectLines(render(ProgressBar(fraction: 0.5, ascii: true), width: 10, height: 1), ["#####-----"])
        expectLines(render(ProgressBar(fraction: 0.99, label: "99%", ascii: true), width: 8, height: 1), ["###- 99%"])
    }

    @Test("out-of-range fractions are clamped")
    func clamping() {
        expectLines(render(ProgressBar(fraction: 1.7), width: 3, height: 1), ["███"])
        expectLines(render(ProgressBar(fraction: -0.5), width: 3, height: 1), [""])
        expectLines(render(ProgressBar(fraction: .nan), width: 3, height: 1), [""])
        expectLines(render(ProgressBar(fraction: .infinity), width: 3, height: 1), ["███"])
    }

    @Test("too narrow for bar and label: the label alone")
    func narrow() {
        expectLines(render(ProgressBar(fraction: 0.5, label: "42%"), width: 4, height: 1), ["42%"])
        expectLines(render(ProgressBar(fraction: 0.5, label: "42%"), width: 3, height: 1), ["42%"])
        expectLines(render(ProgressBar(fraction: 0.5, label: "42%"), width: 2, height: 1), ["4…"])
        expectLines(render(ProgressBar(fraction: 0.5, label: "42%"), width: 5, height: 1), ["▌ 42%"])
    }

    @Test func emptySymbol() {
        expectLines(render(ProgressBar(fraction: 0.25, emptySymbol: "·"), width: 8, height: 1), ["██······"])
    }
}
