/// A place in a TOML document: its 1-based line and column (the column counts Unicode
/// scalars, as an editor does).
public struct TOMLPosition: Hashable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    public let line: Int
    /// The column, from 1.
    public let column: Int

    /// A position.
    ///
    /// - Parameters:
    ///   - line: The line, from 1.
    ///   - column: The column, from 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }
}
