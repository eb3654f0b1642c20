import Testing
import TerminalUI

@Suite("ListScroll")
struct ListScrollTests {
    @Test func startsAtTheTop() {
        let scroll = ListScroll(count: 10, viewportHeight: 3)
        #expect(scroll.cursor == 0 && scroll.offset == 0)
        #expect(scroll.visibleRange == 0..<3)
        #expect(scroll.selection == 0)
        #expect(scroll.cursorRow == 0)
    }

    @Test("the view scrolls only when the cursor would leave it")
    func scrollsMinimally() {
        var scroll = ListScroll(count: 10, viewportHeight: 3)
        scroll.moveDown()
        scroll.moveDown()
        #expect(scroll.cursor == 2 && scroll.offset == 0)
        scroll.moveDown()
        #expect(scroll.cursor == 3 && scroll.offset == 1)
        scroll.moveUp()
        scroll.moveUp()
        #expect(scroll.cursor == 1 && scroll.offset == 1)
        scroll.moveUp()
        #expect(scroll.cursor == 0 && scroll.offset == 0)
        scroll.moveUp()
        #expect(scroll.cursor == 0 && scroll.offset == 0)
    }

    @Test func topAndBottom() {
        var scroll = ListScroll(count: 10, viewportHeight: 3)
        scroll.moveToBottom()
        #expect(scroll.cursor == 9 && scroll.offset == 7)
        #expect(scroll.visibleRange == 7..<10)
        scroll.moveToTop()
        #expect(scroll.cursor == 0 && scroll.offset == 0)
        scroll.select(-5)
        #expect(scroll.cursor == 0)
        scroll.select(100)
        #expect(scroll.cursor == 9)
    }

    @Test("page down and up move view and cursor by a page, keeping the cursor's row")
    func paging() {
        var scroll = ListScroll(count: 10, viewportHeight: 3)
        scroll.pageDown()
        #expect(scroll.cursor == 2 && scroll.offset == 2)
        scroll.moveDown()
        #expect(scroll.cursor == 3 && scroll.offset == 2)
        scroll.pageDown()
        #expect(scroll.cursor == 5 && scroll.offset == 4)
        scroll.pageUp()
        #expect(scroll.cursor == 3 && scroll.offset == 2)
        scroll.pageDown()
        scroll.pageDown()
        scroll.pageDown()
        #expect(scroll.cursor == 9 && scroll.offset == 7)
        scroll.pageDown()
        #expect(scroll.cursor == 9 && scroll.offset == 7)
        scroll.pageUp()
        #expect(scroll.cursor == 7 && scroll.offset == 5)
        for _ in 0..<5 { scroll.pageUp() }
        #expect(scroll.cursor == 0 && scroll.offset == 0)
    }

    @Test func pagingWithOneRow() {
        var scroll = ListScroll(count: 4, viewportHeight: 1)
        scroll.pageDown()
        #expect(scroll.cursor == 1 && scroll.offset == 1)
    }

    @Test func emptyList() {
        var scroll = ListScroll(count: 0, viewportHeight: 5)
        scroll.moveDown()
        scroll.pageDown()
        scroll.moveToBottom()
        #expect(scroll.cursor == 0 && scroll.offset == 0)
        #expect(scroll.selection == nil && scroll.cursorRow == nil)
        #expect(scroll.visibleRange.isEmpty)
    }

    @Test("a shorter list keeps the cursor inside it")
    func countChanges() {
        var scroll = ListScroll(count: 10, viewportHeight: 3, cursor: 9)
        scroll.setCount(5)
        #expect(scroll.cursor == 4 && scroll.offset == 2)
        scroll.setCount(0)
        #expect(scroll.cursor == 0 && scroll.offset == 0)
        scroll.setCount(3)
        #expect(scroll.cursor == 0 && scroll.visibleRange == 0..<3)
    }

    @Test func viewportChanges() {
        var scroll = ListScroll(count: 10, viewportHeight: 3, cursor: 9)
        #expect(scroll.offset == 7)
        scroll.setViewportHeight(10)
        #expect(scroll.offset == 0)
        scroll.setViewportHeight(2)
        #expect(scroll.offset == 8)
        scroll.setViewportHeight(0)
        #expect(scroll.offset == 0 && scroll.visibleRange.isEmpty)
        let fitted = ListScroll(count: 10, viewportHeight: 10, cursor: 9).fitted(viewportHeight: 4)
        #expect(fitted.offset == 6 && fitted.viewportHeight == 4)
        #expect(ListScroll(count: 10, viewportHeight: 3, cursor: 9).fitted(viewportHeight: 3, count: 4).cursor == 3)
    }

    @Test("a margin keeps rows visible around the cursor")
    func margin() {
        var scroll = ListScroll(count: 20, viewportHeight: 5, margin: 1)
        scroll.select(3)
        #expect(scroll.offset == 0)
        scroll.select(4)
        #expect(scroll.offset == 1)
        scroll.moveToBottom()
        #expect(scroll.offset == 15)
        scroll.select(16)
        #expect(scroll.offset == 15)
        scroll.select(15)
        #expect(scroll.offset == 14)
        var small = ListScroll(count: 20, viewportHeight: 2, margin: 5)
        small.select(5)
        #expect(small.offset == 4)
    }
}
