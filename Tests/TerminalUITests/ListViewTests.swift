import Testing
import TerminalUI
import TestSupport

@Suite("ListView")
struct ListViewTests {
    let items: [TextLine] = ["alpha", "beta", "gamma", "delta"]

    @Test func highlightsTheCursorRow() {
        let list = ListView(items: items, scroll: ListScroll(count: 4, viewportHeight: 3, cursor: 1))
        let buffer = render(list, width: 8, height: 3)
        expectLines(buffer, ["alpha", "beta", "gamma"])
        expectStyle(buffer, in: Rect(x: 0, y: 1, width: 8, height: 1), Style(reverse: true))
        expectStyle(buffer, in: Rect(x: 0, y: 0, width: 8, height: 1), .plain)
    }

    @Test func highlightSymbol() {
        let list = ListView(items: items, scroll: ListScroll(count: 4, viewportHeight: 3, cursor: 1), highlightSymbol: "> ")
        expectLines(render(list, width: 8, height: 3), ["  alpha", "> beta", "  gamma"])
    }

    @Test("the list re-fits the scroll to its own height")
    func refitsScroll() {
        let list = ListView(items: items, scroll: ListScroll(count: 4, viewportHeight: 10, cursor: 3))
        expectLines(render(list, width: 6, height: 2), ["gamma", "delta"])
        let stale = ListView(items: items, scroll: ListScroll(count: 40, viewportHeight: 2, cursor: 30))
        expectLines(render(stale, width: 6, height: 2), ["gamma", "delta"])
    }

    @Test func hiddenHighlight() {
        let list = ListView(items: items, scroll: ListScroll(count: 4, viewportHeight: 2), showsHighlight: false)
        let buffer = render(list, width: 6, height: 2)
        expectStyle(buffer, in: buffer.area, .plain)
    }

    @Test func placeholderWhenEmpty() {
        let list = ListView(items: [], scroll: ListScroll(), placeholder: TextLine("(empty)", style: Style(dim: true)))
        expectLines(render(list, width: 9, height: 2), ["(empty)", ""])
        expectLines(render(ListView(items: [], scroll: ListScroll()), width: 3, height: 1), [""])
    }

    @Test func wideItemsAreTruncated() {
        let list = ListView(items: ["日本語ファイル.txt", "ok"], scroll: ListScroll(count: 2, viewportHeight: 2))
        expectLines(render(list, width: 6, height: 2), ["日本… ", "ok"])
    }

    @Test("span colors survive the highlight unless it sets its own")
    func highlightPatchesSpans() {
        let list = ListView(
            items: [TextLine([Span("ab", style: Style(foreground: .red))])],
            scroll: ListScroll(count: 1, viewportHeight: 1)
        )
        let buffer = render(list, width: 3, height: 1)
        expectStyle(buffer, in: Rect(x: 0, y: 0, width: 2, height: 1), Style(foreground: .red, reverse: true))
        expectStyle(buffer, in: Rect(x: 2, y: 0, width: 1, height: 1), Style(reverse: true))
    }
}
