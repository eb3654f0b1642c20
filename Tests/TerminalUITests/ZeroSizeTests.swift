import Testing
import TerminalUI
import TestSupport

/// Every widget copes with empty, tiny and off-buffer areas: no crash, and nothing drawn
/// outside its area.
@Suite("Widgets in zero-size and tiny areas")
struct ZeroSizeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let widget: any Widget & Sendable
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "TextLine", widget: TextLine("hello 日本")),
        Case(name: "Paragraph", widget: Paragraph("one two three\nfour", wrap: true)),
        Case(name: "Block", widget: Block(title: "Title")),
        Case(name: "Clear", widget: Clear()),
        Case(name: "ProgressBar", widget: ProgressBar(fraction: 0.5, label: "50%")),
        Case(name: "HelpBar", widget: HelpBar(items: [.init(key: "q", description: "Quit")])),
        Case(name: "TextInput", widget: TextInput(editor: LineEditor(text: "日本語"), placeholder: "x")),
        Case(name: "Dialog", widget: Dialog(title: "T", message: "m", buttons: ["OK", "No"])),
        Case(name: "TooSmall", widget: TooSmall(minimum: Size(width: 80, height: 24))),
    ]

    static let areas: [Rect] = [
        .zero,
        Rect(x: 2, y: 1, width: 0, height: 3),
        Rect(x: 2, y: 1, width: 3, height: 0),
        Rect(x: 2, y: 1, width: 1, height: 1),
        Rect(x: 1, y: 1, width: 2, height: 1),
        Rect(x: 5, y: 3, width: 4, height: 4),
        Rect(x: 40, y: 40, width: 5, height: 5),
    ]

    @Test(arguments: cases, areas)
    func staysInsideItsArea(_ testCase: Case, area: Rect) {
        var buffer = CellBuffer(width: 6, height: 4)
        buffer.fill(buffer.area, with: Cell("x"))
        testCase.widget.render(in: area, buffer: &buffer)
        let inside = area.intersection(buffer.area)
        for y in 0..<buffer.height {
            for x in 0..<buffer.width where !inside.contains(Point(x: x, y: y)) {
                #expect(buffer[x: x, y: y] == Cell("x"), "cell (\(x),\(y)) outside \(area)")
            }
        }
        if area.isEmpty {
            #expect(buffer.lines() == Array(repeating: "xxxxxx", count: 4))
        }
        if let cursor = buffer.cursor {
            #expect(inside.contains(cursor))
        }
    }

    @Test(arguments: cases)
    func rendersIntoAnEmptyBuffer(_ testCase: Case) {
        var buffer = CellBuffer(width: 0, height: 0)
        testCase.widget.render(in: Rect(x: 0, y: 0, width: 10, height: 10), buffer: &buffer)
        #expect(buffer.lines() == [])
    }
}
