import TerminalUI

/// One row of the key-binding table: which keys, in which pane, do what, and when not.
///
/// The help bar and the `?` help screen are generated from ``KeyBindings/all``; the model
/// dispatches keys through the same table.
public struct KeyBinding: Sendable {
    /// The keys that trigger the binding.
    public var keys: [KeyEvent]
    /// How the keys are written in the help (`j/↓`).
    public var label: String
    /// What the binding does, in a few words.
    public var description: String
    /// Fewer words for a narrow help bar, or `nil` when ``description`` is already short.
    public var shortDescription: String?
    /// The pane the binding belongs to; `nil` for every pane.
    public var pane: Pane?
    /// What happens.
    public var action: KeyAction
    /// How much the help bar wants to keep it on a narrow row.
    public var helpBarPriority: HelpBar.Priority
    /// Whether the help bar shows it.
    public var showsInHelpBar: Bool
    /// Whether the help screen lists it; `false` for a binding another one's label already
    /// names (`-` under `+/-`).
    public var isListedInHelpScreen: Bool
    /// What the binding does in a given state, when that differs from ``description`` (`p`
    /// resumes while the queue is paused); the help bar shows it.
    public var liveDescription: (@Sendable (AppState) -> String)?
    /// Why the binding does nothing right now, or `nil` when it is enabled.
    public var whyDisabled: @Sendable (AppState) -> String?

    /// Creates a binding.
    ///
    /// - Parameters:
    ///   - keys: The keys.
    ///   - label: How the keys are written.
    ///   - description: What it does.
    ///   - shortDescription: Fewer words for a narrow help bar.
    ///   - pane: Its pane, or `nil` for all.
    ///   - action: What happens.
    ///   - helpBarPriority: How much the help bar wants to keep it on a narrow row.
    ///   - showsInHelpBar: Whether the help bar shows it.
    ///   - isListedInHelpScreen: Whether the help screen lists it.
    ///   - liveDescription: What it does in a given state, when that differs.
    ///   - whyDisabled: Why it is disabled in a state, if it is.
    public init(_ keys: [KeyEvent], _ label: String, _ description: String, short shortDescription: String? = nil,
                pane: Pane?, action: KeyAction, helpBarPriority: HelpBar.Priority = .normal, showsInHelpBar: Bool = true,
                isListedInHelpScreen: Bool = true, liveDescription: (@Sendable (AppState) -> String)? = nil,
                whyDisabled: @escaping @Sendable (AppState) -> String? = { _ in nil }) {
        self.keys = keys
        self.label = label
        self.description = description
        self.shortDescription = shortDescription
        self.pane = pane
        self.action = action
        self.helpBarPriority = helpBarPriority
        self.showsInHelpBar = showsInHelpBar
        self.isListedInHelpScreen = isListedInHelpScreen
        self.liveDescription = liveDescription
        self.whyDisabled = whyDisabled
    }

    /// The binding as a help bar item in a state: its live description, whether it is enabled.
    ///
    /// - Parameter state: The state.
    /// - Returns: The item.
    public func helpBarItem(in state: AppState) -> HelpBar.Item {
        // A live description that says what the binding always says keeps the short words.
        let live = liveDescription?(state)
        let current = live == description ? nil : live
        return HelpBar.Item(key: label, description: current ?? description, shortDescription: current == nil ? shortDescription : nil,
                            isEnabled: whyDisabled(state) == nil, priority: helpBarPriority)
    }
}
