/// What `v` and `y` show over the pane: the request as it goes out (secrets masked), or the curl
/// command copied to the clipboard.
public struct RequestView: Hashable, Sendable {
    /// The box's title.
    public var title: String
    /// The lines shown.
    public var lines: [String]
    /// Lines scrolled past.
    public var scroll = 0

    /// Creates a view at its top.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - lines: The lines.
    public init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }
}
