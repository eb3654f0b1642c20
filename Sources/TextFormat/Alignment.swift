/// Horizontal placement of text inside a wider area.
public enum Alignment: Hashable, Sendable {
    /// Flush left.
    case left
    /// Centered; an odd leftover column goes to the right side.
    case center
    /// Flush right.
    case right

    /// The number of blank columns before content of `contentWidth` in `width` columns.
    ///
    /// - Parameters:
    ///   - contentWidth: The display width of the content.
    ///   - width: The width of the area.
    /// - Returns: The left padding, never negative.
    public func leadingPadding(contentWidth: Int, in width: Int) -> Int {
        let free = max(0, width - contentWidth)
        switch self {
        case .left: return 0
        case .center: return free / 2
        case .right: return free
        }
    }
}
