/// Something that draws itself into a rectangle of a ``CellBuffer``.
///
/// Widgets are plain values describing what to draw, built fresh for every frame; any
/// state that outlives a frame (a selection, a scroll offset, the text being edited) lives
/// outside the widget, in values such as ``ListScroll`` and ``LineEditor`` that the app
/// model owns. Every widget copes with an empty or tiny area: it draws what fits and
/// never writes outside `area`.
public protocol Widget {
    /// Draws the widget.
    ///
    /// - Parameters:
    ///   - area: The rectangle to draw in; it may be empty and may extend past the buffer.
    ///   - buffer: The buffer to draw into.
    func render(in area: Rect, buffer: inout CellBuffer)
}
