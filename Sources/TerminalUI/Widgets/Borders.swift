/// Which sides of a ``Block`` have a border.
public struct Borders: OptionSet, Hashable, Sendable {
    /// The bit set.
    public let rawValue: UInt8

    /// Creates a set from its bits.
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The top side.
    public static let top = Borders(rawValue: 1)
    /// The bottom side.
    public static let bottom = Borders(rawValue: 2)
    /// The left side.
    public static let left = Borders(rawValue: 4)
    /// The right side.
    public static let right = Borders(rawValue: 8)
    /// All four sides.
    public static let all: Borders = [.top, .bottom, .left, .right]
    /// No side.
    public static let none: Borders = []
}
