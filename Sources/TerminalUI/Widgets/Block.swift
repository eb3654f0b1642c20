import TextFormat

/// A box around other widgets: borders on some or all sides and an optional title.
///
/// Render the block, then render its content in ``inner(_:)``. The title sits on the top
/// border as `┌ Title ───┐`; without a top border it takes the first row itself. A block
/// with no borders and no title is an invisible container (possibly with a background).
public struct Block: Widget, Hashable, Sendable {
    /// The title, or `nil` for none.
    public var title: TextLine?
    /// Where the title sits on the top edge.
    public var titleAlignment: Alignment
    /// Which sides have a border.
    public var borders: Borders
    /// The border characters.
    public var borderType: BorderType
    /// How the border looks.
    public var borderStyle: Style
    /// The style the whole area is filled with first; `nil` leaves it as it is.
    public var background: Style?

    /// Creates a block.
    ///
    /// - Parameters:
    ///   - title: The title, or `nil`.
    ///   - titleAlignment: Where the title sits.
    ///   - borders: Which sides have a border.
    ///   - borderType: The border characters.
    ///   - borderStyle: How the border looks.
    ///   - background: The fill style, or `nil` for none.
    public init(
        title: TextLine? = nil,
        titleAlignment: Alignment = .left,
        borders: Borders = .all,
        borderType: BorderType = .plain,
        borderStyle: Style = .plain,
        background: Style? = nil
    ) {
        self.title = title
        self.titleAlignment = titleAlignment
        self.borders = borders
        self.borderType = borderType
        self.borderStyle = borderStyle
        self.background = background
    }

    /// A block without borders or title.
    public static let borderless = Block(borders: .none)

    /// The area left for content inside the borders (and below a title that has no top
    /// border to sit on).
    ///
    /// - Parameter area: The block's area.
    /// - Returns: The inner rectangle, possibly empty.
    public func inner(_ area: Rect) -> Rect {
        let titleRow = title != nil && !borders.contains(.top) ? 1 : 0
        return area.inset(
            top: (borders.contains(.top) ? 1 : 0) + titleRow,
            left: borders.contains(.left) ? 1 : 0,
            bottom: borders.contains(.bottom) ? 1 : 0,
            right: borders.contains(.right) ? 1 : 0
        )
    }

    /// Draws the borders and the title.
    ///
    /// - Parameters:
    ///   - area: The rectangle.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        if let background { buffer.fill(area, style: background) }
        let base = background ?? .plain
        let edgeStyle = base.patched(with: borderStyle)
        let symbols = borderType.symbols
        let horizontal = Cell(symbols.horizontal, style: edgeStyle)
        let vertical = Cell(symbols.vertical, style: edgeStyle)
        let right = area.maxX - 1
        let bottom = area.maxY - 1
        if borders.contains(.top) { buffer.fill(area.row(0), with: horizontal) }
        if borders.contains(.bottom) { buffer.fill(area.row(area.height - 1), with: horizontal) }
        if borders.contains(.left) { buffer.fill(Rect(x: area.x, y: area.y, width: 1, height: area.height), with: vertical) }
        if borders.contains(.right) { buffer.fill(Rect(x: right, y: area.y, width: 1, height: area.height), with: vertical) }
        if borders.contains([.top, .left]) { buffer.set(Cell(symbols.topLeft, style: edgeStyle), at: Point(x: area.x, y: area.y)) }
        if borders.contains([.top, .right]) { buffer.set(Cell(symbols.topRight, style: edgeStyle), at: Point(x: right, y: area.y)) }
        if borders.contains([.bottom, .left]) { buffer.set(Cell(symbols.bottomLeft, style: edgeStyle), at: Point(x: area.x, y: bottom)) }
        if borders.contains([.bottom, .right]) { buffer.set(Cell(symbols.bottomRight, style: edgeStyle), at: Point(x: right, y: bottom)) }
        guard let title else { return }
        let titleSpans = title.spans.map { Span($0.text, style: base.patched(with: $0.style)) }
        let slot = area.inset(left: borders.contains(.left) ? 1 : 0, right: borders.contains(.right) ? 1 : 0).row(0)
        if borders.contains(.top) {
            // " Title " between the corners.
            let text = TextLine(titleSpans, ellipsis: title.ellipsis).truncated(toWidth: slot.width - 2)
            guard text.width > 0 else { return }
            let padded = TextLine([Span(" ", style: edgeStyle)] + text.spans + [Span(" ", style: edgeStyle)], alignment: titleAlignment)
            padded.render(in: slot, buffer: &buffer)
        } else {
            TextLine(titleSpans, alignment: titleAlignment, ellipsis: title.ellipsis).render(in: slot, buffer: &buffer)
        }
    }
}
