/// How a movement key moves a list, the help screen or a job's details.
public enum ListMovement: Hashable, Sendable {
    /// One line up.
    case up
    /// One line down.
    case down
    /// One page up.
    case pageUp
    /// One page down.
    case pageDown
    /// To the top.
    case top
    /// To the bottom.
    case bottom
}
