import Testing
import TerminalUI

@Suite("Rect and layout")
struct RectTests {
    let area = Rect(x: 0, y: 0, width: 10, height: 5)

    @Test func basics() {
        let rect = Rect(x: 2, y: 3, width: 4, height: 5)
        #expect(rect.maxX == 6 && rect.maxY == 8 && rect.area == 20)
        #expect(rect.contains(Point(x: 2, y: 3)) && !rect.contains(Point(x: 6, y: 3)))
        #expect(Rect(x: 1, y: 1, width: -3, height: 2) == Rect(x: 1, y: 1, width: 0, height: 2))
        #expect(Rect.zero.isEmpty && !rect.isEmpty)
    }

    @Test("splitting a zero-size or tiny rect gives empty rects inside it")
    func zeroSize() {
        for rect in [Rect.zero, Rect(x: 3, y: 4, width: 0, height: 0), Rect(x: 1, y: 1, width: 1, height: 1)] {
            let (top, below) = rect.splitTop(1)
            let (above, bottom) = rect.splitBottom(2)
            let (left, right) = rect.splitLeft(4)
            let (rest, edge) = rect.splitRight(3)
            let parts = [top, below, above, bottom, left, right, rest, edge]
            for part in parts {
                #expect(part.width >= 0 && part.height >= 0)
                #expect(part.isEmpty || rect.intersection(part) == part)
                #expect(part.x >= rect.x && part.y >= rect.y && part.x <= rect.maxX && part.y <= rect.maxY)
            }
        }
    }

    @Test func inset() {
        #expect(area.inset(by: 1) == Rect(x: 1, y: 1, width: 8, height: 3))
        #expect(area.inset(horizontal: 2, vertical: 0) == Rect(x: 2, y: 0, width: 6, height: 5))
        #expect(area.inset(top: 1) == Rect(x: 0, y: 1, width: 10, height: 4))
        let tooMuch = Rect(x: 0, y: 0, width: 5, height: 5).inset(by: 3)
        #expect(tooMuch.isEmpty && tooMuch.x == 3 && tooMuch.y == 3)
        #expect(Rect.zero.inset(by: 1).isEmpty)
    }

    @Test func intersection() {
        let a = Rect(x: 0, y: 0, width: 5, height: 5)
        #expect(a.intersection(Rect(x: 3, y: 3, width: 5, height: 5)) == Rect(x: 3, y: 3, width: 2, height: 2))
        #expect(a.intersection(Rect(x: 7, y: 0, width: 2, height: 2)).isEmpty)
        #expect(!a.intersects(Rect(x: 5, y: 0, width: 2, height: 2)))
        #expect(a.intersects(Rect(x: 4, y: 4, width: 2, height: 2)))
    }

    @Test func centeredAndRows() {
        #expect(area.centered(width: 4, height: 2) == Rect(x: 3, y: 1, width: 4, height: 2))
        #expect(area.centered(width: 40, height: 20) == area)
        #expect(area.row(4) == Rect(x: 0, y: 4, width: 10, height: 1))
        #expect(area.row(5).isEmpty && area.row(-1).isEmpty)
    }

    @Test func splits() {
        #expect(area.splitTop(2) == (Rect(x: 0, y: 0, width: 10, height: 2), Rect(x: 0, y: 2, width: 10, height: 3)))
        #expect(area.splitBottom(1) == (Rect(x: 0, y: 0, width: 10, height: 4), Rect(x: 0, y: 4, width: 10, height: 1)))
        #expect(area.splitLeft(20) == (area, Rect(x: 10, y: 0, width: 0, height: 5)))
        #expect(area.splitRight(3) == (Rect(x: 0, y: 0, width: 7, height: 5), Rect(x: 7, y: 0, width: 3, height: 5)))
    }
}
