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

    /// The movement an action makes, or nil for an action that moves nothing.
    ///
    /// Every action is named here, so a new one must say whether it moves.
    ///
    /// - Parameter action: A key binding's action.
    public init?(_ action: KeyAction) {
        switch action {
        case .up: self = .up
        case .down: self = .down
        case .pageUp: self = .pageUp
        case .pageDown: self = .pageDown
        case .top: self = .top
        case .bottom: self = .bottom
        case .nextPane, .previousPane, .focus, .showHelp, .quit, .forceQuit, .queueSelection, .open, .parent, .home,
             .refresh, .filter, .toggleHidden, .cycleSort, .toggleSelection, .selectAll, .edit, .addRow, .deleteRow,
             .reveal, .details, .retry, .retryFailedAndCancelled, .cancel, .cancelAll, .togglePause, .remove,
             .clearSucceeded, .moreConcurrency, .lessConcurrency:
            return nil
        }
    }
}
