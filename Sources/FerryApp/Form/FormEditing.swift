import TerminalUI

/// A form row being edited in place.
public struct FormEditing: Hashable, Sendable {
    /// The row being edited.
    public var field: FormField
    /// The text and cursor.
    public var editor: LineEditor

    /// Starts editing a row.
    ///
    /// - Parameters:
    ///   - field: The row.
    ///   - text: Its current text.
    public init(field: FormField, text: String) {
        self.field = field
        self.editor = LineEditor(text: text)
        self.editor.moveToEnd()
    }
}
