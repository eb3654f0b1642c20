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
    /// The pane the binding belongs to; `nil` for every pane.
    public var pane: Pane?
    /// What happens.
    public var action: KeyAction
    /// Whether the help bar shows it (the help screen shows every binding).
    public var showsInHelpBar: Bool
    /// Why the binding does nothing right now, or `nil` when it is enabled.
    public var whyDisabled: @Sendable (AppState) -> String?

    /// Creates a binding.
    ///
    /// - Parameters:
    ///   - keys: The keys.
    ///   - label: How the keys are written.
    ///   - description: What it does.
    ///   - pane: Its pane, or `nil` for all.
    ///   - action: What happens.
    ///   - showsInHelpBar: Whether the help bar shows it.
    ///   - whyDisabled: Why it is disabled in a state, if it is.
    public init(_ keys: [KeyEvent], _ label: String, _ description: String, pane: Pane?, action: KeyAction,
                showsInHelpBar: Bool = true, whyDisabled: @escaping @Sendable (AppState) -> String? = { _ in nil }) {
        self.keys = keys
        self.label = label
        self.description = description
        self.pane = pane
        self.action = action
        self.showsInHelpBar = showsInHelpBar
        self.whyDisabled = whyDisabled
    }
}
