import TerminalUI
import TextFormat

/// The `?` help screen: every binding of the key-binding table once, in its sections
/// (``KeyHelpSection/all``). Sections are packed into as many columns as the width holds, never
/// split across two; when they do not fit the height the screen scrolls.
struct HelpScreen: Widget {
    /// The state, for the bindings' enabled state and the scroll offset.
    let state: AppState

    /// Columns between two columns of sections.
    private static let gap = 3

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        Clear().render(in: area, buffer: &buffer)
        let inner = Self.inner(of: area)
        let layout = Self.layout(in: inner.size)
        let scroll = min(max(0, state.helpScroll), max(0, layout.height - inner.height))
        let hint = layout.height > inner.height ? " Keys — ↑↓ scroll, Esc closes " : " Keys — Esc or ? closes "
        Block(title: TextLine(hint, style: Theme.heading)).render(in: area, buffer: &buffer)
        guard !inner.isEmpty else { return }
        for (position, indices) in layout.columns.enumerated() {
            let x = inner.x + position * (layout.columnWidth + Self.gap)
            let column = indices.enumerated().flatMap { position, index in
                (position > 0 ? [TextLine("")] : []) + lines(of: Self.sections[index], labelWidth: layout.labelWidth)
            }
            for (row, line) in column.enumerated() where row >= scroll && row - scroll < inner.height {
                line.render(in: Rect(x: x, y: inner.y + row - scroll, width: min(layout.columnWidth, inner.maxX - x), height: 1),
                            buffer: &buffer)
            }
        }
    }

    /// The largest useful scroll offset of the help screen in an area.
    ///
    /// - Parameter area: The size of the area the screen covers.
    /// - Returns: How many rows can be scrolled past with the last one still on screen.
    static func maximumScroll(in area: Size) -> Int {
        let inner = inner(of: Rect(origin: .zero, size: area))
        return max(0, layout(in: inner.size).height - inner.height)
    }

    private static func inner(of area: Rect) -> Rect {
        Block().inner(area).inset(horizontal: 1, vertical: 0)
    }

    /// The sections, each binding once (``KeyHelpSection/all``).
    private static let sections = KeyHelpSection.all

    /// Sections packed into columns: the section indices of each column, the widths, and the
    /// rows the tallest column takes.
    private struct Layout {
        var columns: [[Int]]
        var labelWidth: Int
        var columnWidth: Int
        var height: Int
    }

    private static func layout(in area: Size) -> Layout {
        let bindings = sections.flatMap(\.bindings)
        let labelWidth = (bindings.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2
        let descriptionWidth = bindings.map { DisplayWidth.of($0.description) }.max() ?? 0
        let columnWidth = max(labelWidth + descriptionWidth, sections.map { DisplayWidth.of($0.title) }.max() ?? 0)
        let columnCount = max(1, (area.width + gap) / (columnWidth + gap))
        // A section takes its heading's row and one per binding.
        let heights = sections.map { $0.bindings.count + 1 }
        // The shortest height at which the sections, in order and whole, need at most the
        // columns there are.
        var height = heights.max() ?? 0
        while packing(heights, intoHeight: height).count > columnCount { height += 1 }
        let columns = packing(heights, intoHeight: height)
        let used = columns.map { column in column.reduce(-1) { $0 + 1 + heights[$1] } }.max() ?? 0
        return Layout(columns: columns, labelWidth: labelWidth, columnWidth: columnWidth, height: used)
    }

    /// Sections (by height) packed greedily in order into columns of at most `height` rows, a
    /// blank row between two sections of a column.
    private static func packing(_ heights: [Int], intoHeight height: Int) -> [[Int]] {
        var columns: [[Int]] = []
        var used = 0
        for (index, sectionHeight) in heights.enumerated() {
            if let last = columns.indices.last, used + 1 + sectionHeight <= height {
                columns[last].append(index)
                used += 1 + sectionHeight
            } else {
                columns.append([index])
                used = sectionHeight
            }
        }
        return columns
    }

    private func lines(of section: KeyHelpSection, labelWidth: Int) -> [TextLine] {
        [TextLine(section.title, style: Theme.heading)] + section.bindings.map { binding in
            let style = binding.whyDisabled(state) == nil ? Style.plain : Theme.dim
            return TextLine([Span(DisplayWidth.pad(binding.label, toWidth: labelWidth), style: Theme.heading.patched(with: style)),
                             Span(binding.description, style: style)])
        }
    }
}
