/// How ``NcursesTerminal`` shows ``Style`` colors.
public enum ColorMode: Hashable, Sendable {
    /// Colors as styled; `hasBrightColors` tells whether palette entries 8–15 exist (when
    /// not, bright colors show as their basic color, bold in the foreground).
    case color(hasBrightColors: Bool)
    /// No colors: the terminal has none or `NO_COLOR` is set. Only bold, underline,
    /// reverse and dim show, so highlights must use them.
    case monochrome
}
