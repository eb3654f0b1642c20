/// Why a presigned POST document (`--presigned-post`) cannot be used.
public enum PresignedPostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document is not JSON; the payload says where and why.
    case notJSON(String)
    /// The document is JSON but not an object.
    case notAnObject
    /// There is no `url` string.
    case missingURL
    /// There is no `fields` object, it is empty, or a field's name is empty.
    case missingFields
    /// A field's value is not a string (or a number).
    case fieldNotText(String)

    public var description: String {
        let expected = #"expected {"url": "...", "fields": {"key": "...", ...}} as boto3's generate_presigned_post makes it"#
        switch self {
        case let .notJSON(problem): return "the presigned POST is \(problem); \(expected)"
        case .notAnObject: return "the presigned POST is not a JSON object; \(expected)"
        case .missingURL: return "the presigned POST has no \"url\" string; \(expected)"
        case .missingFields: return "the presigned POST has no \"fields\" to send (or a field with an empty name); \(expected)"
        case let .fieldNotText(name): return "the presigned POST's field \"\(name)\" is not a string; \(expected)"
        }
    }
}
