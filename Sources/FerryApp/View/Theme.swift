import TerminalUI
import UploadModel

/// The interface's styles. Every meaning also reads in monochrome: the cursor row is reversed,
/// headings are bold, marks and words carry what colour adds to.
public enum Theme {
    /// The cursor row.
    public static let cursor = Style(reverse: true)
    /// Headings and the focused tab.
    public static let heading = Style(bold: true)
    /// Secondary text.
    public static let dim = Style(dim: true)
    /// Directories.
    public static let directory = Style(foreground: .blue, bold: true)
    /// Selected files.
    public static let selected = Style(foreground: .green, bold: true)
    /// Errors and failed jobs.
    public static let error = Style(foreground: .red, bold: true)
    /// Notices.
    public static let notice = Style(foreground: .yellow, bold: true)
    /// The status line.
    public static let status = Style(reverse: true)

    /// The style of a job row's mark and state.
    ///
    /// - Parameter state: The job's state.
    /// - Returns: Its style.
    public static func style(for state: UploadJobState) -> Style {
        switch state {
        case .queued: Style(dim: true)
        case .uploading: Style(foreground: .cyan, bold: true)
        case .succeeded: Style(foreground: .green)
        case .failed: error
        case .cancelled: Style(foreground: .yellow)
        }
    }
}
