/// How the file browser orders entries (directories always come first).
public enum SortMode: String, CaseIterable, Hashable, Sendable, Codable {
    /// By name, case-insensitively.
    case name
    /// By size, largest first.
    case size
    /// By modification time, newest first.
    case modified

    /// The next mode, for `s`.
    public var next: SortMode {
        switch self {
        case .name: .size
        case .size: .modified
        case .modified: .name
        }
    }
}
