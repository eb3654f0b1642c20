import Testing
import TerminalUI
import TestSupport

@Suite("Block")
struct BlockTests {
    @Test func titledBox() {
        let block = Block(title: "Files")
        expectLines(render(block, width: 12, height: 4), [
            "┌ Files ───┐",
            "│          │",
            "│          │",
            "└──────────┘",
        ])
        #expect(block.inner(Rect(x: 0, y: 0, width: 12, height: 4)) == Rect(x: 1, y: 1, width: 10, height: 2))
    }

    @Test func longTitleIsTruncated() {
        expectLines(render(Block(title: "A very long title"), width: 10, height: 3), [
            "┌ A ver… ┐",
            "│        │",
            "└────────┘",
        ])
    }

    @Test func titleAlignment() {
        expectLines(render(Block(title: "Files", titleAlignment: .right), width: 12, height: 2), [
            "┌─── Files ┐",
            "└──────────┘",
        ])
        expectLines(render(Block(title: "日本", titleAlignment: .center), width: 10, height: 2), [
            "┌─ 日本 ─┐",
            "└────────┘",
        ])
    }

    @Test func borderTypes() {
        expectLines(render(Block(borderType: .rounded), width: 4, height: 3), ["╭──╮", "│  │", "╰──╯"])
        expectLines(render(Block(borderType: .double), width: 3, height: 2), ["╔═╗", "╚═╝"])
        expectLines(render(Block(borderType: .ascii), width: 3, height: 3), ["+-+", "| |", "+-+"])
    }

    @Test func partialBorders() {
        let top = Block(borders: .top)
        expectLines(render(top, width: 5, height: 2), ["─────", ""])
        #expect(top.inner(Rect(x: 0, y: 0, width: 5, height: 2)) == Rect(x: 0, y: 1, width: 5, height: 1))
        expectLines(render(Block(borders: [.left, .bottom]), width: 3, height: 2), ["│", "└──"])
    }

    @Test("without borders the title takes the first row")
    func borderless() {
        let block = Block(title: "Title", borders: .none)
        expectLines(render(block, width: 6, height: 2), ["Title", ""])
        #expect(block.inner(Rect(x: 0, y: 0, width: 6, height: 2)) == Rect(x: 0, y: 1, width: 6, height: 1))
        #expect(Block.borderless.inner(Rect(x: 1, y: 1, width: 3, height: 3)) == Rect(x: 1, y: 1, width: 3, height: 3))
    }

    @Test func tinyAreas() {
        expectLines(render(Block(title: "T"), width: 2, height: 2), ["┌┐", "└┘"])
        expectLines(render(Block(title: "Title"), width: 3, height: 3), ["┌─┐", "│ │", "└─┘"])
        expectLines(render(Block(title: "Title"), width: 4, height: 1), ["└──┘"], "one row: the bottom edge wins")
        #expect(Block().inner(Rect(x: 0, y: 0, width: 1, height: 1)).isEmpty)
        #expect(Block().inner(.zero) == .zero)
    }

    @Test func borderStyleAndBackground() {
        let buffer = render(Block(borderStyle: Style(foreground: .cyan), background: Style(background: .blue)), width: 4, height: 3)
        expectStyle(buffer, in: Rect(x: 0, y: 0, width: 4, height: 1), Style(foreground: .cyan, background: .blue))
        expectStyle(buffer, in: Rect(x: 1, y: 1, width: 2, height: 1), Style(background: .blue))
    }
}
