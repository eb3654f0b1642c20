/// `${NAME}` in a profile's value: a reference to an environment variable, so a secret lives in
/// the environment and never in `profiles.toml`.
public enum EnvironmentReference {
    /// Why a value's references could not be replaced.
    public enum Failure: Error, Hashable, Sendable {
        /// The variable is not set.
        case notSet(String)
        /// A `${` has no closing `}`.
        case unclosed
    }

    /// The text with every `${NAME}` replaced by the variable's value (`$` alone, or `$` before
    /// anything but `{`, stays as it is).
    ///
    /// - Parameters:
    ///   - text: The value as written.
    ///   - environment: The environment.
    /// - Returns: The value to send.
    /// - Throws: ``Failure`` for a variable that is not set or a `${` without `}`.
    public static func expand(_ text: String, environment: [String: String]) throws(Failure) -> String {
        var result = ""
        var rest = text[...]
        while let start = rest.firstRange(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { throw .unclosed }
            let variable = String(rest[start.upperBound..<end])
            guard let value = environment[variable] else { throw .notSet(variable) }
            result += value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// Whether a value names an environment variable (then it holds no secret of its own).
    ///
    /// - Parameter text: The value.
    /// - Returns: Whether it contains `${…}`.
    public static func isReference(_ text: String) -> Bool {
        guard let start = text.firstRange(of: "${") else { return false }
        return text[start.upperBound...].contains("}")
    }

    /// The variable a saved profile names for a secret it leaves out: the profile's and the
    /// header's names in capitals, each run of other characters an underscore
    /// (`photos` + `Authorization` → `PHOTOS_AUTHORIZATION`).
    ///
    /// - Parameters:
    ///   - profile: The profile's name.
    ///   - key: What the secret is (a header's name, `PROXY_PASSWORD`).
    /// - Returns: The variable's name.
    public static func variableName(profile: String, key: String) -> String {
        var name = ""
        for scalar in "\(profile)_\(key)".uppercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                name.unicodeScalars.append(scalar)
            } else if !name.hasSuffix("_") {
                name += "_"
            }
        }
        let trimmed = String(name.drop { $0 == "_" || $0.isNumber })
        return trimmed.hasSuffix("_") ? String(trimmed.dropLast()) : trimmed
    }
}
