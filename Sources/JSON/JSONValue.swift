/// A JSON value as read by ``JSONReader``, objects keeping their members in the order written
/// (Foundation's `JSONSerialization` loses it, and a presigned POST's fields must go out in it).
public enum JSONValue: Sendable, Hashable {
    /// One member of an object.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public var key: String
        /// Its value.
        public var value: JSONValue

        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object: its members in the order written (a repeated name is kept as written).
    case object([Member])
    /// An array.
    case array([JSONValue])
    /// A string.
    case string(String)
    /// A number, as its text (so no digit is lost to a `Double`).
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// The value of an object's first member named `key`; nil for a missing member or when this
    /// is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of a string value; nil for any other value.
    public var stringValue: String? {
        guard case let .string(text) = self else { return nil }
        return text
    }

    /// The value a JSON pointer (RFC 6901) names in this value.
    ///
    /// - Parameter pointer: The pointer.
    /// - Returns: The value, or nil when the path leads nowhere.
    public func value(at pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case let .object(members):
                guard let member = members.first(where: { $0.key == token }) else { return nil }
                current = member.value
            case let .array(elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
