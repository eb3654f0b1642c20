extension Rect {
    /// Splits the rectangle into rows, top to bottom.
    ///
    /// - Parameters:
    ///   - constraints: One constraint per row band; see ``Constraint`` for the rules.
    ///   - spacing: Empty rows between consecutive bands.
    /// - Returns: One rectangle per constraint, each as wide as `self` and inside it
    ///   (bands that got no space are empty).
    public func rows(_ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        let heights = Constraint.lengths(for: constraints, total: height, spacing: spacing)
        var top = y
        return heights.map { length in
            let start = Swift.min(top, maxY)
            top += length + Swift.max(0, spacing)
            return Rect(x: x, y: start, width: width, height: Swift.min(length, maxY - start))
        }
    }

    /// Splits the rectangle into columns, left to right.
    ///
    /// - Parameters:
    ///   - constraints: One constraint per column band; see ``Constraint`` for the rules.
    ///   - spacing: Empty columns between consecutive bands.
    /// - Returns: One rectangle per constraint, each as tall as `self` and inside it
    ///   (bands that got no space are empty).
    public func columns(_ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        let widths = Constraint.lengths(for: constraints, total: width, spacing: spacing)
        var left = x
        return widths.map { length in
            let start = Swift.min(left, maxX)
            left += length + Swift.max(0, spacing)
            return Rect(x: start, y: y, width: Swift.min(length, maxX - start), height: height)
        }
    }

    /// Cuts `rows` rows off the top.
    ///
    /// - Parameter rows: The number of rows for the top part (clamped to the height).
    /// - Returns: The top part and the rest below it.
    public func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let h = Swift.min(Swift.max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: h), Rect(x: x, y: y + h, width: width, height: height - h))
    }

    /// Cuts `rows` rows off the bottom.
    ///
    /// - Parameter rows: The number of rows for the bottom part (clamped to the height).
    /// - Returns: The rest above it and the bottom part.
    public func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let h = Swift.min(Swift.max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: height - h), Rect(x: x, y: maxY - h, width: width, height: h))
    }

    /// Cuts `columns` columns off the left.
    ///
    /// - Parameter columns: The number of columns for the left part (clamped to the width).
    /// - Returns: The left part and the rest right of it.
    public func splitLeft(_ columns: Int) -> (left: Rect, rest: Rect) {
        let w = Swift.min(Swift.max(0, columns), width)
        return (Rect(x: x, y: y, width: w, height: height), Rect(x: x + w, y: y, width: width - w, height: height))
    }

    /// Cuts `columns` columns off the right.
    ///
    /// - Parameter columns: The number of columns for the right part (clamped to the width).
    /// - Returns: The rest left of it and the right part.
    public func splitRight(_ columns: Int) -> (rest: Rect, right: Rect) {
        let w = Swift.min(Swift.max(0, columns), width)
        return (Rect(x: x, y: y, width: width - w, height: height), Rect(x: maxX - w, y: y, width: w, height: height))
    }
}
