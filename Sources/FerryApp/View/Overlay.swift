import TerminalUI

/// A box over the panes (the request, the profile picker, the profile's name): its area cleared,
/// a border with a title; what goes inside is the caller's.
enum Overlay {
    /// Draws the box.
    ///
    /// - Parameters:
    ///   - title: The title on the top border.
    ///   - area: Where the box goes.
    ///   - buffer: The frame.
    /// - Returns: The area inside the border.
    static func frame(_ title: String, in area: Rect, buffer: inout CellBuffer) -> Rect {
        Clear().render(in: area, buffer: &buffer)
        let block = Block(title: TextLine(" \(title) ", style: Theme.heading))
        block.render(in: area, buffer: &buffer)
        return block.inner(area)
    }
}
