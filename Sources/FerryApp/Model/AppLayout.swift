import TerminalUI

/// Where everything goes on a screen of a given size; shared by the model (page sizes) and
/// the view.
public struct AppLayout: Hashable, Sendable {
    /// The smallest screen the interface draws on.
    public static let minimumSize = Size(width: 40, height: 12)

    /// The screen size.
    public var size: Size
    /// The tab bar (top row).
    public var tabs: Rect
    /// The focused pane's area.
    public var body: Rect
    /// The status line.
    public var status: Rect
    /// The help bar (bottom row).
    public var help: Rect

    /// Lays out a screen.
    ///
    /// - Parameter size: The screen size.
    public init(size: Size) {
        let area = Rect(origin: .zero, size: size)
        let (tabs, rest) = area.splitTop(1)
        let (middle, help) = rest.splitBottom(1)
        let (body, status) = middle.splitBottom(1)
        self.size = size
        self.tabs = tabs
        self.body = body
        self.status = status
        self.help = help
    }

    /// The area the `?` help screen covers: everything above the help bar.
    public var helpScreen: Rect { Rect(x: 0, y: 0, width: size.width, height: help.y) }

    /// Whether the screen is large enough.
    public var fits: Bool { size.contains(AppLayout.minimumSize) }

    /// Rows of the file list and the queue table (below their header rows).
    public var listHeight: Int { max(0, body.height - 1) }
}
