/// What a backend must paint to turn the previous frame into the next one.
public struct BufferDiff: Hashable, Sendable {
    /// Whether the whole screen must be cleared and repainted: the size changed or there
    /// was no previous frame. ``changes`` then holds every row in full.
    public var isFullRepaint: Bool
    /// The changed runs, top to bottom and left to right.
    public var changes: [CellChange]

    /// Creates a diff.
    ///
    /// - Parameters:
    ///   - isFullRepaint: Whether the screen is repainted from scratch.
    ///   - changes: The runs to paint.
    public init(isFullRepaint: Bool, changes: [CellChange]) {
        self.isFullRepaint = isFullRepaint
        self.changes = changes
    }

    /// Whether nothing needs painting.
    public var isEmpty: Bool { !isFullRepaint && changes.isEmpty }

    /// The number of cells to paint.
    public var cellCount: Int { changes.reduce(0) { $0 + $1.cells.count } }
}
