/// A rectangle of cells: origin (`x`, `y`) and size (`width`, `height`).
///
/// Every operation is safe on empty rectangles and never produces a negative size, so
/// layout code can split and inset without guarding against tiny terminals.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The leftmost column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// The number of columns (never negative).
    public var width: Int
    /// The number of rows (never negative).
    public var height: Int

    /// Creates a rectangle; a negative width or height becomes zero.
    ///
    /// - Parameters:
    ///   - x: The leftmost column.
    ///   - y: The top row.
    ///   - width: The number of columns.
    ///   - height: The number of rows.
    public init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Creates a rectangle from an origin and a size.
    ///
    /// - Parameters:
    ///   - origin: The top-left cell.
    ///   - size: The size.
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(width: 0, height: 0)

    /// The top-left cell.
    public var origin: Point { Point(x: x, y: y) }
    /// The size.
    public var size: Size { Size(width: width, height: height) }
    /// The first column past the right edge (`x + width`).
    public var maxX: Int { x + width }
    /// The first row past the bottom edge (`y + height`).
    public var maxY: Int { y + height }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// The number of cells.
    public var area: Int { width * height }

    /// Whether `point` lies inside.
    ///
    /// - Parameter point: The cell to test.
    /// - Returns: `true` when the cell is inside.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The overlap of two rectangles; an empty rectangle when they do not overlap.
    ///
    /// - Parameter other: The other rectangle.
    /// - Returns: The common part.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether the two rectangles share at least one cell.
    ///
    /// - Parameter other: The other rectangle.
    /// - Returns: `true` when they overlap.
    public func intersects(_ other: Rect) -> Bool {
        !intersection(other).isEmpty
    }

    /// Shrinks the rectangle by `amount` cells on every side.
    ///
    /// - Parameter amount: Cells removed from each side.
    /// - Returns: The inner rectangle, empty when nothing is left.
    public func inset(by amount: Int) -> Rect {
        inset(top: amount, left: amount, bottom: amount, right: amount)
    }

    /// Shrinks the rectangle horizontally and vertically.
    ///
    /// - Parameters:
    ///   - horizontal: Cells removed from the left and from the right.
    ///   - vertical: Cells removed from the top and from the bottom.
    /// - Returns: The inner rectangle, empty when nothing is left.
    public func inset(horizontal: Int, vertical: Int) -> Rect {
        inset(top: vertical, left: horizontal, bottom: vertical, right: horizontal)
    }

    /// Shrinks the rectangle by a different amount on each side.
    ///
    /// The origin never moves past the far edge, so the result stays inside `self`.
    ///
    /// - Parameters:
    ///   - top: Rows removed at the top.
    ///   - left: Columns removed at the left.
    ///   - bottom: Rows removed at the bottom.
    ///   - right: Columns removed at the right.
    /// - Returns: The inner rectangle, empty when nothing is left.
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        let left = min(max(0, left), width)
        let top = min(max(0, top), height)
        return Rect(
            x: x + left,
            y: y + top,
            width: width - left - max(0, right),
            height: height - top - max(0, bottom)
        )
    }

    /// A rectangle of at most `width` × `height` centered in this one.
    ///
    /// - Parameters:
    ///   - width: The wanted number of columns (clamped to this rectangle's).
    ///   - height: The wanted number of rows (clamped to this rectangle's).
    /// - Returns: The centered rectangle.
    public func centered(width: Int, height: Int) -> Rect {
        let w = min(max(0, width), self.width)
        let h = min(max(0, height), self.height)
        return Rect(x: x + (self.width - w) / 2, y: y + (self.height - h) / 2, width: w, height: h)
    }

    /// The single row `index` rows below the top, or an empty rectangle outside.
    ///
    /// - Parameter index: The row, 0 for the top one.
    /// - Returns: A rectangle one row high (or empty).
    public func row(_ index: Int) -> Rect {
        guard index >= 0, index < height else { return Rect(x: x, y: index < 0 ? y : maxY, width: width, height: 0) }
        return Rect(x: x, y: y + index, width: width, height: 1)
    }

    /// `"(x,y) WxH"`.
    public var description: String { "(\(x),\(y)) \(width)x\(height)" }
}
