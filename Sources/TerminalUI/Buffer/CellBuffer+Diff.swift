extension CellBuffer {
    /// The runs of cells that differ from `old`, for a backend to paint.
    ///
    /// When `old` is `nil` or has another size, the result is a full repaint holding every
    /// row. Runs are widened so that they never split a wide grapheme. The cursor is not
    /// part of the diff: a backend places it after painting.
    ///
    /// - Parameter old: The frame that is on the screen, if any.
    /// - Returns: The changes.
    public func diff(from old: CellBuffer?) -> BufferDiff {
        guard let old, old.size == size else {
            let rows = (0..<height).map { y in
                CellChange(x: 0, y: y, cells: Array(cells[(y * width)..<((y + 1) * width)]))
            }
            return BufferDiff(isFullRepaint: true, changes: width == 0 ? [] : rows)
        }
        var changes: [CellChange] = []
        for y in 0..<height {
            let rowStart = y * width
            var x = 0
            while x < width {
                guard cells[rowStart + x] != old.cells[rowStart + x] else {
                    x += 1
                    continue
                }
                var start = x
                if start > 0 && cells[rowStart + start].isContinuation { start -= 1 }
                var end = x + 1
                while end < width && cells[rowStart + end] != old.cells[rowStart + end] { end += 1 }
                if cells[rowStart + end - 1].width == 2 && end < width { end += 1 }
                changes.append(CellChange(x: start, y: y, cells: Array(cells[(rowStart + start)..<(rowStart + end)])))
                x = end
            }
        }
        return BufferDiff(isFullRepaint: false, changes: changes)
    }
}
