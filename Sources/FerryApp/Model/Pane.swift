/// The three panes of the interface, in Tab order.
public enum Pane: Int, CaseIterable, Hashable, Sendable {
    /// The file browser.
    case files
    /// The upload form.
    case form
    /// The upload queue.
    case queue

    /// The pane's title, as the tab bar shows it.
    public var title: String {
        switch self {
        case .files: "Files"
        case .form: "Form"
        case .queue: "Queue"
        }
    }

    /// The next pane in Tab order (wrapping around).
    public var next: Pane { Pane(rawValue: (rawValue + 1) % 3) ?? .files }

    /// The previous pane in Tab order (wrapping around).
    public var previous: Pane { Pane(rawValue: (rawValue + 2) % 3) ?? .files }
}
