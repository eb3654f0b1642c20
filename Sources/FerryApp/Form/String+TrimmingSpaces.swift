extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }), let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[start...end])
    }

    /// The string, or nil when it is empty (an empty form row means "not set").
    var nilWhenEmpty: String? { isEmpty ? nil : self }
}
