/// The Form's profile picker (`P`): the profiles of `profiles.toml` and the highlighted one.
public struct ProfilePicker: Hashable, Sendable {
    /// The profiles, in their names' order.
    public var choices: [ProfileChoice]
    /// The file they were read from, for the title.
    public var file: String
    /// The highlighted choice.
    public var cursor = 0

    /// Creates a picker on the first profile.
    ///
    /// - Parameters:
    ///   - choices: The profiles.
    ///   - file: The file they came from.
    public init(choices: [ProfileChoice], file: String) {
        self.choices = choices
        self.file = file
    }

    /// Moves the highlight by `step`, staying on the list.
    ///
    /// - Parameter step: -1 up, 1 down.
    public mutating func move(_ step: Int) {
        cursor = min(max(0, cursor + step), max(0, choices.count - 1))
    }
}
