import TextFormat

/// A `width` × `height` grid of ``Cell``s that widgets draw into and a backend paints.
///
/// Text is laid out by display width: a wide grapheme takes a leading cell and a
/// continuation cell, and the buffer keeps such pairs whole: overwriting either half blanks
/// the other. Every operation clips to the buffer, so drawing outside it is a no-op.
///
/// The view sets ``cursor`` when a text field has focus; the backend shows the terminal
/// cursor there and hides it otherwise.
public struct CellBuffer: Hashable, Sendable {
    /// The size in cells.
    public private(set) var size: Size
    /// The cells, row by row from the top-left.
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown, or `nil` to hide it.
    public var cursor: Point?

    /// Creates a buffer filled with blanks.
    ///
    /// - Parameters:
    ///   - width: The number of columns (negative becomes 0).
    ///   - height: The number of rows (negative becomes 0).
    ///   - style: The style of the blanks.
    public init(width: Int, height: Int, style: Style = .plain) {
        self.init(size: Size(width: width, height: height), style: style)
    }

    /// Creates a buffer filled with blanks.
    ///
    /// - Parameters:
    ///   - size: The size in cells.
    ///   - style: The style of the blanks.
    public init(size: Size, style: Style = .plain) {
        self.size = size
        self.cells = Array(repeating: .blank(style: style), count: size.width * size.height)
        self.cursor = nil
    }

    /// The number of columns.
    public var width: Int { size.width }
    /// The number of rows.
    public var height: Int { size.height }
    /// The whole buffer as a rectangle at the origin.
    public var area: Rect { Rect(origin: .zero, size: size) }

    /// The cell at (`x`, `y`).
    ///
    /// - Parameters:
    ///   - x: The column; **must** be inside the buffer.
    ///   - y: The row; **must** be inside the buffer.
    public subscript(x x: Int, y y: Int) -> Cell {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "cell (\(x),\(y)) outside \(size)")
        return cells[y * width + x]
    }

    /// The cell at `point`, or `nil` outside the buffer.
    ///
    /// - Parameter point: The position.
    /// - Returns: The cell, if any.
    public func cell(at point: Point) -> Cell? {
        guard area.contains(point) else { return nil }
        return cells[point.y * width + point.x]
    }

    /// Sets one cell, keeping wide graphemes whole.
    ///
    /// Overwriting half of a wide grapheme blanks its other half; a wide cell that would
    /// stick out of the right edge becomes a blank; a continuation cell is stored as a
    /// blank. Outside the buffer this does nothing.
    ///
    /// - Parameters:
    ///   - cell: The cell to store.
    ///   - point: Where.
    public mutating func set(_ cell: Cell, at point: Point) {
        guard area.contains(point) else { return }
        let index = point.y * width + point.x
        clearWideNeighbours(at: index, x: point.x)
        if cell.width == 2 {
            guard point.x + 1 < width else {
                cells[index] = .blank(style: cell.style)
                return
            }
            clearWideNeighbours(at: index + 1, x: point.x + 1)
            cells[index] = cell
            cells[index + 1] = .continuation(style: cell.style)
        } else if cell.isContinuation {
            cells[index] = .blank(style: cell.style)
        } else {
            cells[index] = cell
        }
    }

    /// Before cell `index` is overwritten, blanks the other half of any wide grapheme it
    /// belongs to.
    private mutating func clearWideNeighbours(at index: Int, x: Int) {
        let current = cells[index]
        if current.isContinuation, x > 0 {
            cells[index - 1] = .blank(style: cells[index - 1].style)
        } else if current.width == 2, x + 1 < width {
            cells[index + 1] = .blank(style: cells[index + 1].style)
        }
    }

    /// Writes `string` on one row, grapheme by grapheme, by display width.
    ///
    /// Writing stops at the right edge, after `maxWidth` columns, or at the end of the
    /// text. A wide grapheme that does not fit in the last column becomes a space in
    /// `style`. Zero-width graphemes (control characters, a lone combining mark) are
    /// skipped: escape text that may hold them with ``DisplayWidth/escapingControls(_:)``.
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - point: The first cell; a point left of the buffer skips the hidden columns.
    ///   - style: The style of the written cells.
    ///   - maxWidth: At most this many columns; `nil` for up to the right edge.
    /// - Returns: The number of columns written.
    @discardableResult
    public mutating func put<S: StringProtocol>(_ string: S, at point: Point, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard point.y >= 0, point.y < height else { return 0 }
        let limit = min(point.x + (maxWidth ?? Int.max / 2), width)
        var x = point.x
        for character in string {
            guard x < limit else { break }
            let cellWidth = DisplayWidth.of(character)
            if cellWidth == 0 { continue }
            if x + cellWidth > limit {
                set(.blank(style: style), at: Point(x: x, y: point.y))
                x += 1
                break
            }
            if x >= 0 {
                set(Cell(character, style: style), at: Point(x: x, y: point.y))
            } else if x + cellWidth > 0 {
                set(.blank(style: style), at: Point(x: 0, y: point.y))
            }
            x += cellWidth
        }
        return max(0, x - max(point.x, 0))
    }

    /// Writes styled spans one after another on one row; see ``put(_:at:style:maxWidth:)``.
    ///
    /// - Parameters:
    ///   - spans: The spans, in order.
    ///   - point: The first cell.
    ///   - maxWidth: At most this many columns in all; `nil` for up to the right edge.
    /// - Returns: The number of columns written.
    @discardableResult
    public mutating func put(_ spans: [Span], at point: Point, maxWidth: Int? = nil) -> Int {
        var used = 0
        let limit = maxWidth ?? Int.max / 2
        for span in spans {
            guard used < limit else { break }
            used += put(span.text, at: Point(x: point.x + used, y: point.y), style: span.style, maxWidth: limit - used)
        }
        return used
    }

    /// Fills a rectangle (clipped to the buffer) with copies of one cell.
    ///
    /// - Parameters:
    ///   - rect: The area to fill.
    ///   - cell: The cell to repeat; a wide cell is laid every two columns.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let clipped = rect.intersection(area)
        guard !clipped.isEmpty else { return }
        let step = max(1, cell.width)
        for y in clipped.y..<clipped.maxY {
            var x = clipped.x
            while x < clipped.maxX {
                if step == 2 && x + 1 >= clipped.maxX {
                    set(.blank(style: cell.style), at: Point(x: x, y: y))
                } else {
                    set(cell, at: Point(x: x, y: y))
                }
                x += step
            }
        }
    }

    /// Fills a rectangle (clipped to the buffer) with blanks in `style`.
    ///
    /// - Parameters:
    ///   - rect: The area to clear.
    ///   - style: The style of the blanks.
    public mutating func fill(_ rect: Rect, style: Style) {
        fill(rect, with: .blank(style: style))
    }

    /// Replaces the style of every cell in a rectangle, keeping the text.
    ///
    /// - Parameters:
    ///   - style: The new style.
    ///   - rect: The area (clipped to the buffer).
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        restyle(rect) { _ in style }
    }

    /// Lays `style` over the style of every cell in a rectangle (see
    /// ``Style/patched(with:)``), keeping the text. Used for highlights.
    ///
    /// - Parameters:
    ///   - style: The overlay.
    ///   - rect: The area (clipped to the buffer).
    public mutating func patchStyle(_ style: Style, in rect: Rect) {
        restyle(rect) { $0.patched(with: style) }
    }

    private mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
        let clipped = rect.intersection(area)
        guard !clipped.isEmpty else { return }
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX {
                let index = y * width + x
                cells[index].style = transform(cells[index].style)
            }
        }
    }

    /// The text of each row, for tests and logs: one string per row, continuation cells
    /// left out, trailing blanks kept (so every line is exactly `width` columns wide).
    ///
    /// - Returns: One string per row.
    public func lines() -> [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width {
                let cell = cells[y * width + x]
                if !cell.isContinuation { line.append(cell.content) }
            }
            return line
        }
    }
}
