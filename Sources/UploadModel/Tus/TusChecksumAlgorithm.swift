/// A checksum algorithm of tus's `checksum` extension that Ferry can compute.
public enum TusChecksumAlgorithm: String, Sendable, Hashable, Codable, CaseIterable {
    /// SHA-256, preferred.
    case sha256
    /// SHA-1, when the server offers nothing stronger.
    case sha1

    /// The strongest algorithm of those a server lists (`Tus-Checksum-Algorithm`), or nil when it
    /// lists none Ferry computes.
    ///
    /// - Parameter offered: The server's algorithm names (case-insensitive).
    /// - Returns: `sha256` over `sha1`; nil for none of them.
    public static func strongest(of offered: [String]) -> TusChecksumAlgorithm? {
        let names = Set(offered.map { $0.lowercased() })
        return allCases.first { names.contains($0.rawValue) }
    }
}
