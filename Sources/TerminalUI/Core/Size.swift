/// A size in terminal cells. Negative components are clamped to zero.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The number of columns.
    public var width: Int
    /// The number of rows.
    public var height: Int

    /// Creates a size; negative values become zero.
    ///
    /// - Parameters:
    ///   - width: The number of columns.
    ///   - height: The number of rows.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// No columns and no rows.
    public static let zero = Size(width: 0, height: 0)

    /// Whether the size has no cell.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether both dimensions are at least those of `other`.
    ///
    /// - Parameter other: The minimum size.
    /// - Returns: `true` when this size fits `other` inside it.
    public func contains(_ other: Size) -> Bool {
        width >= other.width && height >= other.height
    }

    /// `"80x24"`.
    public var description: String { "\(width)x\(height)" }
}
