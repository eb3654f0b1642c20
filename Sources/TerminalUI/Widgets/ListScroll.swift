/// The cursor and scroll offset of a list: pure state that keeps the cursor visible.
///
/// The app model owns one per list and updates it on keys; the panes read it. Scrolling is
/// stable: the view moves only when the cursor would leave it (or come closer to its edge
/// than ``margin`` rows), as in vim with `scrolloff`.
///
/// Every method keeps the invariants `0 ≤ cursor < count` (cursor 0 when empty) and
/// `0 ≤ offset ≤ max(0, count − viewportHeight)`.
public struct ListScroll: Hashable, Sendable {
    /// The number of items.
    public private(set) var count: Int
    /// The index of the item under the cursor (0 when the list is empty).
    public private(set) var cursor: Int
    /// The index of the first visible item.
    public private(set) var offset: Int
    /// The number of visible rows.
    public private(set) var viewportHeight: Int
    /// Rows kept visible between the cursor and the top or bottom edge while scrolling.
    public let margin: Int

    /// Creates the state of a list.
    ///
    /// - Parameters:
    ///   - count: The number of items.
    ///   - viewportHeight: The number of visible rows.
    ///   - cursor: The initial cursor (clamped).
    ///   - margin: Rows kept between cursor and edge (`scrolloff`).
    public init(count: Int = 0, viewportHeight: Int = 1, cursor: Int = 0, margin: Int = 0) {
        self.count = max(0, count)
        self.viewportHeight = max(0, viewportHeight)
        self.margin = max(0, margin)
        self.cursor = 0
        self.offset = 0
        self.cursor = clampedCursor(cursor)
        revealCursor()
    }

    /// The selected index, or `nil` when the list is empty.
    public var selection: Int? { count > 0 ? cursor : nil }

    /// The indices of the visible items.
    public var visibleRange: Range<Int> { offset..<min(count, offset + viewportHeight) }

    /// The row of the cursor inside the viewport, or `nil` when the list is empty.
    public var cursorRow: Int? { count > 0 ? cursor - offset : nil }

    /// Changes the number of items (after a directory reload, say), keeping the cursor
    /// on the same index where it still exists.
    ///
    /// - Parameter count: The new number of items.
    public mutating func setCount(_ count: Int) {
        self.count = max(0, count)
        cursor = clampedCursor(cursor)
        revealCursor()
    }

    /// Changes the number of visible rows (after a resize).
    ///
    /// - Parameter height: The new number of visible rows.
    public mutating func setViewportHeight(_ height: Int) {
        viewportHeight = max(0, height)
        revealCursor()
    }

    /// Moves the cursor to `index` (clamped) and scrolls as little as needed.
    ///
    /// - Parameter index: The item to select.
    public mutating func select(_ index: Int) {
        cursor = clampedCursor(index)
        revealCursor()
    }

    /// Moves the cursor by `delta` items (negative is up), clamped to the list.
    ///
    /// - Parameter delta: How far to move.
    public mutating func move(by delta: Int) {
        select(cursor + delta)
    }

    /// Moves the cursor one item up.
    public mutating func moveUp() { move(by: -1) }

    /// Moves the cursor one item down.
    public mutating func moveDown() { move(by: 1) }

    /// Moves the cursor to the first item.
    public mutating func moveToTop() { select(0) }

    /// Moves the cursor to the last item.
    public mutating func moveToBottom() { select(count - 1) }

    /// Scrolls one page down: the view and the cursor move by a page (the viewport height
    /// less one row of overlap), so the cursor keeps its row on screen until the end.
    public mutating func pageDown() { page(by: pageSize) }

    /// Scrolls one page up; see ``pageDown()``.
    public mutating func pageUp() { page(by: -pageSize) }

    /// Returns this state adjusted to another viewport height, for a renderer whose area
    /// differs from the last one the model knew.
    ///
    /// - Parameters:
    ///   - height: The viewport height to use.
    ///   - count: The number of items, if it differs.
    /// - Returns: The adjusted state.
    public func fitted(viewportHeight height: Int, count: Int? = nil) -> ListScroll {
        var copy = self
        if let count {
            copy.count = max(0, count)
            copy.cursor = copy.clampedCursor(copy.cursor)
        }
        copy.viewportHeight = max(0, height)
        copy.revealCursor()
        return copy
    }

    private var pageSize: Int { max(1, viewportHeight - 1) }

    private mutating func page(by delta: Int) {
        guard count > 0 else { return }
        let row = cursor - offset
        cursor = clampedCursor(cursor + delta)
        offset = clampedOffset(offset + delta)
        // Keep the cursor's screen row where possible, then make sure it is visible.
        if cursor - offset != row { offset = clampedOffset(cursor - row) }
        revealCursor()
    }

    private func clampedCursor(_ index: Int) -> Int {
        count == 0 ? 0 : min(max(0, index), count - 1)
    }

    private func clampedOffset(_ value: Int) -> Int {
        min(max(0, value), max(0, count - viewportHeight))
    }

    private mutating func revealCursor() {
        guard count > 0, viewportHeight > 0 else {
            offset = 0
            return
        }
        let effectiveMargin = min(margin, (viewportHeight - 1) / 2)
        if cursor - effectiveMargin < offset {
            offset = cursor - effectiveMargin
        } else if cursor + effectiveMargin > offset + viewportHeight - 1 {
            offset = cursor + effectiveMargin - viewportHeight + 1
        }
        offset = clampedOffset(offset)
    }
}
