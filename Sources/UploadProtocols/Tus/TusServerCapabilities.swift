import FoundationEssentials
import UploadModel

/// What a tus server said about itself in its answer to `OPTIONS`.
public struct TusServerCapabilities: Sendable, Hashable, Codable {
    /// The protocol versions (`Tus-Version`), preferred first.
    public var versions: [String]
    /// The extensions (`Tus-Extension`), lowercased: `creation`, `creation-with-upload`,
    /// `termination`, `checksum`, `expiration`, …
    public var extensions: Set<String>
    /// The largest upload the server accepts (`Tus-Max-Size`), if it says.
    public var maximumSize: Int64?
    /// The checksum algorithm Ferry uses: the strongest of `Tus-Checksum-Algorithm` it computes,
    /// when the server has the `checksum` extension.
    public var checksum: TusChecksumAlgorithm?

    /// Reads the capabilities from an `OPTIONS` answer.
    ///
    /// - Parameter response: The answer; its status is not looked at.
    /// - Returns: The capabilities, or nil when the answer has no `Tus-Version` (not a tus server).
    public init?(_ response: UploadResponse) {
        guard let versions = response.value(forHeader: "Tus-Version") else { return nil }
        self.versions = Self.list(versions)
        extensions = Set(Self.list(response.value(forHeader: "Tus-Extension") ?? "").map { $0.lowercased() })
        maximumSize = response.value(forHeader: "Tus-Max-Size").flatMap { Int64($0.trimmingWhitespace()) }
        checksum = extensions.contains("checksum")
            ? TusChecksumAlgorithm.strongest(of: Self.list(response.value(forHeader: "Tus-Checksum-Algorithm") ?? ""))
            : nil
    }

    /// Whether the server offers an extension.
    ///
    /// - Parameter name: The extension's name, lowercase.
    /// - Returns: Whether `Tus-Extension` lists it.
    public func offers(_ name: String) -> Bool {
        extensions.contains(name)
    }

    /// A comma-separated header value as its non-empty items, trimmed.
    private static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }
}
