extension Rect {
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
