/// What went wrong with `profiles.toml` or a profile in it. Every case names the file, where
/// known, and the key and profile, so the user can go to the line and fix it.
public enum ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is not TOML: the parser stopped at this line and column.
    case syntax(file: String, line: Int, column: Int, detail: String)
    /// A key holds the wrong kind of value (`expected` says which kind it wants).
    case wrongType(file: String, profile: String?, key: String, expected: String)
    /// A key Ferry does not know (`profile` is nil at the top level).
    case unknownKey(file: String, profile: String?, key: String)
    /// A value of the right kind that cannot be used.
    case unusableValue(file: String?, profile: String, key: String, reason: String)
    /// A `${NAME}` names an environment variable that is not set.
    case missingVariable(String, profile: String, key: String)
    /// No profile of that name is in the file.
    case notFound(profile: String, file: String, available: [String])
    /// The file could not be read.
    case unreadable(file: String, reason: String)
    /// The file could not be written.
    case unwritable(file: String, reason: String)

    public var description: String {
        func place(_ profile: String?, _ key: String) -> String {
            profile.map { "profile '\($0)', key '\(key)'" } ?? "key '\(key)'"
        }
        switch self {
        case let .syntax(file, line, column, detail):
            return "\(file):\(line):\(column): \(detail)"
        case let .wrongType(file, profile, key, expected):
            return "\(file): \(place(profile, key)): expected \(expected)"
        case let .unknownKey(file, nil, key):
            return "\(file): key '\(key)': unknown key (profiles go in [profiles.NAME] tables)"
        case let .unknownKey(file, profile, key):
            return "\(file): \(place(profile, key)): unknown key (known: \(EndpointProfile.keys.joined(separator: ", ")))"
        case let .unusableValue(file, profile, key, reason):
            return "\(file.map { "\($0): " } ?? "")\(place(profile, key)): \(reason)"
        case let .missingVariable(variable, profile, key):
            return "profile '\(profile)', key '\(key)': the environment variable \(variable) is not set (export it, or edit the profile)"
        case let .notFound(profile, file, available):
            let names = available.isEmpty ? "it has no profiles" : "it has \(available.joined(separator: ", "))"
            return "\(file): no profile named '\(profile)' (\(names))"
        case let .unreadable(file, reason):
            return "\(file): cannot be read: \(reason)"
        case let .unwritable(file, reason):
            return "\(file): cannot be written: \(reason)"
        }
    }
}
