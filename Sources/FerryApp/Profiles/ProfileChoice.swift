import UploadModel

/// A profile the picker lists: as the file has it, and either as requests use it (its `${NAME}`
/// references expanded by the runtime) or why it cannot be used now.
public struct ProfileChoice: Hashable, Sendable {
    /// The profile as written, `${NAME}` references and all.
    public var written: EndpointProfile
    /// The profile, expanded; or the problem (an environment variable not set).
    public var profile: Result<EndpointProfile, ProfileError>

    /// The profile's name.
    public var name: String { written.name }

    /// Creates a choice.
    ///
    /// - Parameters:
    ///   - written: The profile as the file has it.
    ///   - profile: The expanded profile, or why it cannot be used.
    public init(written: EndpointProfile, profile: Result<EndpointProfile, ProfileError>) {
        self.written = written
        self.profile = profile
    }

    /// A profile about to be saved with the references this one was loaded with: a header, the URL
    /// or the proxy still as loaded is written as the file had it (`Bearer ${TOKEN}`), not as a
    /// new reference.
    ///
    /// - Parameter profile: The form as a profile.
    /// - Returns: The profile to save.
    public func keepingReferences(in profile: EndpointProfile) -> EndpointProfile {
        guard case .success(let expanded) = self.profile else { return profile }
        var kept = profile
        kept.headers = profile.headers.map { header in
            expanded.headers.firstIndex(of: header).map { written.headers[$0] } ?? header
        }
        if profile.url == expanded.url { kept.url = written.url }
        if profile.proxy == expanded.proxy { kept.proxy = written.proxy }
        return kept
    }
}
