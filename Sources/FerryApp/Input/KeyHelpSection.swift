/// One section of the key help: a heading and its bindings, as the `?` help screen shows them and
/// the manual's keys tables (``KeysDocument``) list them.
public struct KeyHelpSection: Sendable {
    /// The heading.
    public var title: String
    /// The bindings, in the table's order.
    public var bindings: [KeyBinding]

    /// Every binding the help lists, once: the keys of every pane, the movement keys (the same
    /// in every list), each pane's own keys in Tab order, then the text fields' keys from
    /// ``ModalKeys``.
    public static let all: [KeyHelpSection] = {
        let listed = KeyBindings.all.filter(\.isListedInHelpScreen)
        let moves = listed.filter { $0.pane == .files && KeyBindings.isMovement($0.action) }
        var sections = [KeyHelpSection(title: "Everywhere", bindings: listed.filter { $0.pane == nil }),
                        KeyHelpSection(title: "Moving in lists", bindings: moves)]
        for pane in Pane.allCases {
            sections.append(KeyHelpSection(title: pane.title,
                                           bindings: listed.filter { $0.pane == pane && !KeyBindings.isMovement($0.action) }))
        }
        sections.append(KeyHelpSection(title: "Text fields", bindings: ModalKeys.formEditor))
        return sections
    }()
}
