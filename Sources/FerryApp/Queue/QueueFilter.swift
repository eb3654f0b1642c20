import UploadModel

/// What the Queue pane's filter lets through: a case-insensitive part of the job's name, and
/// `is:STATE` words that narrow it to jobs in those states.
///
/// The text is split at spaces: each `is:` word names a state by any beginning of its name
/// (`is:f` is `is:failed`), several name any of them; the other words, joined by single spaces,
/// are looked for in the name. States: `queued`, `held` (queued, waiting for `p`), `uploading`,
/// `done` (or `succeeded`), `failed`, `cancelled`. An `is:` word that names no state lets
/// nothing through, and ``unknownStates`` says which.
public struct QueueFilter: Hashable, Sendable {
    /// A state the filter can name.
    public enum StateWord: String, CaseIterable, Hashable, Sendable {
        case queued, held, uploading, done, succeeded, failed, cancelled
    }

    /// The text as typed.
    public let text: String
    /// The lowercased part of the name to look for; empty matches every name.
    private let needle: String
    /// The states named, if any `is:` word was typed.
    private let states: Set<StateWord>?
    /// The `is:` words that name no state.
    public let unknownStates: [String]

    /// The filter of a text.
    ///
    /// - Parameter text: What the user typed.
    public init(_ text: String = "") {
        self.text = text
        var words: [Substring] = []
        var states: Set<StateWord>?
        var unknown: [String] = []
        for word in text.split(separator: " ") {
            guard word.lowercased().hasPrefix("is:") else {
                words.append(word)
                continue
            }
            let name = word.dropFirst(3).lowercased()
            let named = StateWord.allCases.filter { !name.isEmpty && $0.rawValue.hasPrefix(name) }
            if named.isEmpty { unknown.append(String(word)) }
            states = (states ?? []).union(named)
        }
        needle = words.joined(separator: " ").lowercased()
        self.states = states
        unknownStates = unknown
    }

    /// Whether the filter lets every job through.
    public var isEmpty: Bool { needle.isEmpty && states == nil }

    /// Whether the filter names states (a job's state change may let it in or out).
    public var namesStates: Bool { states != nil }

    /// Whether a job passes.
    ///
    /// - Parameter row: The job's row.
    /// - Returns: Whether it is shown.
    public func matches(_ row: QueueRow) -> Bool {
        if let states, !states.contains(where: { Self.word($0, matches: row) }) { return false }
        return needle.isEmpty || row.job.displayName.lowercased().contains(needle)
    }

    private static func word(_ word: StateWord, matches row: QueueRow) -> Bool {
        switch word {
        case .queued: row.state == .queued
        case .held: row.isHeld
        case .uploading: row.state == .uploading
        case .done, .succeeded: row.state == .succeeded
        case .failed: row.state == .failed
        case .cancelled: row.state == .cancelled
        }
    }
}
