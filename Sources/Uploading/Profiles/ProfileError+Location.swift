import FoundationEssentials

extension ProfileError {
    /// The error with the line of its key in `text` added to its file (`path:LINE`), as compilers
    /// and editors write a place, where the key stands on a line of its own under its profile's
    /// `[profiles.NAME]` header (or, outside any profile, at the top of the document). TOMLKit
    /// keeps no value's place, so the line is found in the text: a key written some other way
    /// (a dotted key, an inline table) keeps the file alone.
    ///
    /// - Parameter text: The document the error is about.
    /// - Returns: The located error, or this one.
    func located(in text: String) -> ProfileError {
        switch self {
        case let .wrongType(file, profile, key, expected):
            guard let line = Self.line(of: key, profile: profile, in: text) else { return self }
            return .wrongType(file: "\(file):\(line)", profile: profile, key: key, expected: expected)
        case let .unknownKey(file, profile, key):
            guard let line = Self.line(of: key, profile: profile, in: text) else { return self }
            return .unknownKey(file: "\(file):\(line)", profile: profile, key: key)
        case let .unusableValue(file?, profile, key, reason):
            guard let line = Self.line(of: key, profile: profile, in: text) else { return self }
            return .unusableValue(file: "\(file):\(line)", profile: profile, key: key, reason: reason)
        default:
            return self
        }
    }

    /// The 1-based line where `key` is set in `profile`'s table (nil: at the top level, where
    /// a table of that name counts too).
    private static func line(of key: String, profile: String?, in text: String) -> Int? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingWhitespaceAndNewlines() }
        var inProfile = profile == nil
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("[") {
                let name = line.trimming { "[] \t".contains($0) }.replacingOccurrences(of: "\"", with: "")
                if profile == nil, name == key || name.hasPrefix(key + ".") { return index + 1 }
                inProfile = profile.map { name == "profiles.\($0)" } ?? false
                continue
            }
            guard inProfile, line.hasPrefix(key) else { continue }
            let rest = line.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix("=") { return index + 1 }
        }
        return nil
    }
}
