/// Rows of cells in aligned columns, with a header row and a highlighted cursor row.
///
/// Column widths come from ``Constraint``s (fixed, percent, min, fill) solved against the
/// area width with ``columnSpacing`` blank columns between columns; cells wider than their
/// column are truncated with `…`. The cursor and scroll offset come from a ``ListScroll``,
/// re-fitted to the rows below the header.
public struct Table: Widget, Hashable, Sendable {
    /// A column: its header, width rule and alignment.
    public struct Column: Hashable, Sendable {
        /// The header text.
        public var title: String
        /// How wide the column is.
        public var width: Constraint
        /// Where text sits in the column.
        public var alignment: Alignment

        /// Creates a column.
        ///
        /// - Parameters:
        ///   - title: The header text.
        ///   - width: How wide the column is.
        ///   - alignment: Where text sits in the column.
        public init(_ title: String, width: Constraint = .fill(), alignment: Alignment = .left) {
            self.title = title
            self.width = width
            self.alignment = alignment
        }
    }

    /// The columns.
    public var columns: [Column]
    /// The rows; each holds one line per column (missing cells are blank, extra ignored).
    public var rows: [[TextLine]]
    /// The cursor and scroll offset.
    public var scroll: ListScroll
    /// Whether the header row is drawn.
    public var showsHeader: Bool
    /// How the header looks.
    public var headerStyle: Style
    /// The style rows are filled with, and that cell text is laid over.
    public var style: Style
    /// The style laid over the cursor row.
    public var highlightStyle: Style
    /// Whether the cursor row is highlighted.
    public var showsHighlight: Bool
    /// Blank columns between columns.
    public var columnSpacing: Int

    /// Creates a table.
    ///
    /// - Parameters:
    ///   - columns: The columns.
    ///   - rows: The rows.
    ///   - scroll: The cursor and scroll offset.
    ///   - showsHeader: Whether the header row is drawn.
    ///   - headerStyle: How the header looks.
    ///   - style: The row fill style.
    ///   - highlightStyle: The cursor row overlay.
    ///   - showsHighlight: Whether the cursor row is highlighted.
    ///   - columnSpacing: Blank columns between columns.
    public init(
        columns: [Column],
        rows: [[TextLine]],
        scroll: ListScroll = ListScroll(),
        showsHeader: Bool = true,
        headerStyle: Style = Style(bold: true),
        style: Style = .plain,
        highlightStyle: Style = Style(reverse: true),
        showsHighlight: Bool = true,
        columnSpacing: Int = 1
    ) {
        self.columns = columns
        self.rows = rows
        self.scroll = scroll
        self.showsHeader = showsHeader
        self.headerStyle = headerStyle
        self.style = style
        self.highlightStyle = highlightStyle
        self.showsHighlight = showsHighlight
        self.columnSpacing = columnSpacing
    }

    /// The column rectangles for an area (full height), for callers that draw extra
    /// decorations aligned with the columns.
    ///
    /// - Parameter area: The table's area.
    /// - Returns: One rectangle per column.
    public func columnAreas(in area: Rect) -> [Rect] {
        area.columns(columns.map(\.width), spacing: columnSpacing)
    }

    /// The number of body rows that fit in `area` (its height less the header row).
    ///
    /// - Parameter area: The table's area.
    /// - Returns: The viewport height to give the ``ListScroll``.
    public func bodyHeight(in area: Rect) -> Int {
        max(0, area.height - (showsHeader ? 1 : 0))
    }

    /// Draws the header and the visible rows.
    ///
    /// - Parameters:
    ///   - area: The rectangle.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: style)
        let columnAreas = columnAreas(in: area)
        var body = area
        if showsHeader {
            let split = area.splitTop(1)
            body = split.rest
            for (column, rect) in zip(columns, columnAreas) {
                TextLine(column.title, style: style.patched(with: headerStyle), alignment: column.alignment)
                    .render(in: Rect(x: rect.x, y: split.top.y, width: rect.width, height: 1), buffer: &buffer)
            }
        }
        guard !body.isEmpty, !rows.isEmpty else { return }
        let fitted = scroll.fitted(viewportHeight: body.height, count: rows.count)
        for (rowIndex, index) in fitted.visibleRange.enumerated() {
            let rowArea = body.row(rowIndex)
            for (columnIndex, rect) in columnAreas.enumerated() where columnIndex < rows[index].count {
                var cell = rows[index][columnIndex].over(style)
                cell.alignment = columns[columnIndex].alignment
                cell.render(in: Rect(x: rect.x, y: rowArea.y, width: rect.width, height: 1), buffer: &buffer)
            }
            if showsHighlight && index == fitted.cursor { buffer.patchStyle(highlightStyle, in: rowArea) }
        }
    }
}
