/// A run of changed cells on one row, produced by ``CellBuffer/diff(from:)``.
///
/// A run never starts on a continuation cell and never ends between the two halves of a
/// wide grapheme, so a backend can paint its cells in order, skipping continuation cells,
/// and leave the cursor where the run ends.
public struct CellChange: Hashable, Sendable {
    /// The column of the first cell.
    public var x: Int
    /// The row.
    public var y: Int
    /// The new cells, left to right (continuation cells included).
    public var cells: [Cell]

    /// Creates a run.
    ///
    /// - Parameters:
    ///   - x: The column of the first cell.
    ///   - y: The row.
    ///   - cells: The cells.
    public init(x: Int, y: Int, cells: [Cell]) {
        self.x = x
        self.y = y
        self.cells = cells
    }

    /// The text of the run (continuation cells left out), for tests.
    public var text: String {
        String(cells.filter { !$0.isContinuation }.map(\.content))
    }
}
