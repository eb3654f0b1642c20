/// A cell position: column `x` from the left, row `y` from the top, both from 0.
public struct Point: Hashable, Sendable {
    /// The column, 0 at the left edge.
    public var x: Int
    /// The row, 0 at the top edge.
    public var y: Int

    /// Creates a point.
    ///
    /// - Parameters:
    ///   - x: The column.
    ///   - y: The row.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The top-left corner.
    public static let zero = Point(x: 0, y: 0)
}
