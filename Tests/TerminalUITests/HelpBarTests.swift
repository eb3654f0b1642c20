import Testing
import TerminalUI
import TestSupport

@Suite("HelpBar")
struct HelpBarTests {
    let bar = HelpBar(items: [
        .init(key: "q", description: "Quit"),
        .init(key: "↑↓", description: "Move"),
        .init(key: "Enter", description: "Open"),
    ])

    @Test func laysOutItems() {
        let buffer = render(bar, width: 30, height: 1)
        expectLines(buffer, ["q Quit  ↑↓ Move  Enter Open"])
        expectStyle(buffer, in: Rect(x: 0, y: 0, width: 1, height: 1), Style(bold: true))
        expectStyle(buffer, in: Rect(x: 1, y: 0, width: 5, height: 1), .plain)
    }

    @Test("items that do not fit whole are left out")
    func stopsWhenFull() {
        expectLines(render(bar, width: 15, height: 1), ["q Quit  ↑↓ Move"])
        expectLines(render(bar, width: 14, height: 1), ["q Quit"])
        expectLines(render(bar, width: 3, height: 1), [""])
    }

    @Test func disabledItemsAreDim() {
        let buffer = render(HelpBar(items: [.init(key: "u", description: "Upload", isEnabled: false)]), width: 10, height: 1)
        expectLines(buffer, ["u Upload"])
        expectStyle(buffer, in: Rect(x: 0, y: 0, width: 1, height: 1), Style(bold: true, dim: true))
        expectStyle(buffer, in: Rect(x: 1, y: 0, width: 7, height: 1), Style(dim: true))
    }

    @Test func keyWithoutDescription() {
        expectLines(render(HelpBar(items: [.init(key: "?", description: ""), .init(key: "x", description: "Cut")]), width: 10, height: 1), ["?  x Cut"])
    }
}

@Suite("HelpBar on a narrow row")
struct HelpBarNarrowTests {
    let bar = HelpBar(items: [
        .init(key: "Enter", description: "details", priority: .high),
        .init(key: "x", description: "clear done", shortDescription: "clear", priority: .high),
        .init(key: "+/-", description: "concurrency", shortDescription: "at once"),
        .init(key: "Tab", description: "next pane", shortDescription: "pane", priority: .low),
        .init(key: "?", description: "help", priority: .essential),
        .init(key: "q", description: "quit", priority: .essential),
    ])

    @Test func everythingInFullWhenItFits() {
        expectLines(render(bar, width: 80, height: 1), ["Enter details  x clear done  +/- concurrency  Tab next pane  ? help  q quit"])
    }

    @Test("short words first, then the least important items, rightmost first; essential items stay")
    func shortensThenDrops() {
        expectLines(render(bar, width: 61, height: 1), ["Enter details  x clear  +/- at once  Tab pane  ? help  q quit"])
        expectLines(render(bar, width: 58, height: 1), ["Enter details  x clear  +/- at once  ? help  q quit"])
        expectLines(render(bar, width: 50, height: 1), ["Enter details  x clear  ? help  q quit"])
        expectLines(render(bar, width: 24, height: 1), ["? help  q quit"])
        expectLines(render(bar, width: 10, height: 1), ["? help"])
    }
}
