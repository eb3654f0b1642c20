import TerminalUI

/// A foreground and background pair, the key of the color pair cache.
struct ColorPairKey: Hashable {
    var foreground: Color
    var background: Color
}
