import Testing
import TerminalUI
import TextFormat

/// Renders `widget` into a fresh blank buffer of `width` × `height` over its whole area.
///
/// - Parameters:
///   - widget: The widget.
///   - width: The buffer width.
///   - height: The buffer height.
/// - Returns: The buffer.
public func render(_ widget: some Widget, width: Int, height: Int) -> CellBuffer {
    var buffer = CellBuffer(width: width, height: height)
    widget.render(in: buffer.area, buffer: &buffer)
    return buffer
}

/// Renders `widget` into `area` of a fresh blank buffer of `width` × `height`.
///
/// - Parameters:
///   - widget: The widget.
///   - area: The area given to the widget (may be empty or stick out of the buffer).
///   - width: The buffer width.
///   - height: The buffer height.
/// - Returns: The buffer.
public func render(_ widget: some Widget, in area: Rect, width: Int, height: Int) -> CellBuffer {
    var buffer = CellBuffer(width: width, height: height)
    widget.render(in: area, buffer: &buffer)
    return buffer
}

/// Expects the text of `buffer` (see ``CellBuffer/lines()``) to be `expected`, and records
/// one issue showing both screens, framed, when it is not.
///
/// Expected lines narrower than the buffer are padded with spaces on the right, so tests
/// need not spell out trailing blanks; there must be exactly one expected line per row.
///
/// - Parameters:
///   - buffer: The buffer to check.
///   - expected: One string per row.
///   - comment: What the check is about, shown with a failure.
///   - sourceLocation: Where the expectation is, for the issue.
public func expectLines(
    _ buffer: CellBuffer,
    _ expected: [String],
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual = buffer.lines()
    let padded = expected.map { DisplayWidth.pad($0, toWidth: buffer.width) }
    guard actual != padded else { return }
    func framed(_ lines: [String]) -> String {
        lines.enumerated().map { "\($0.offset < 10 ? " " : "")\($0.offset)|\($0.element)|" }.joined(separator: "\n")
    }
    var mismatches: [String] = []
    for row in 0..<max(actual.count, padded.count) {
        let a = row < actual.count ? actual[row] : "<none>"
        let e = row < padded.count ? padded[row] : "<none>"
        if a != e { mismatches.append("row \(row): expected |\(e)| got |\(a)|") }
    }
    Issue.record(
        Comment(rawValue: """
        \(comment.map { "\($0.rawValue): " } ?? "")buffer \(buffer.size) differs from the expected lines.
        Expected:
        \(framed(padded))
        Actual:
        \(framed(actual))
        \(mismatches.joined(separator: "\n"))
        """),
        sourceLocation: sourceLocation
    )
}

/// Expects every cell of `rect` (clipped to the buffer) to have `style`.
///
/// - Parameters:
///   - buffer: The buffer to check.
///   - rect: The cells to check.
///   - style: The expected style.
///   - sourceLocation: Where the expectation is, for the issue.
public func expectStyle(
    _ buffer: CellBuffer,
    in rect: Rect,
    _ style: Style,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let clipped = rect.intersection(buffer.area)
    guard !clipped.isEmpty else { return }
    for y in clipped.y..<clipped.maxY {
        for x in clipped.x..<clipped.maxX where buffer[x: x, y: y].style != style {
            Issue.record(
                Comment(rawValue: "cell (\(x),\(y)) \"\(buffer[x: x, y: y].content)\" has style \(buffer[x: x, y: y].style), expected \(style)"),
                sourceLocation: sourceLocation
            )
            return
        }
    }
}
