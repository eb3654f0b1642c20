extension JSONValue {
    /// The value as indented JSON text, members in their order, two spaces a level; strings
    /// escaped as ``CompactJSONObject`` escapes them.
    public var prettyPrinted: String {
        var text = ""
        write(into: &text, indent: "")
        return text
    }

    private func write(into text: inout String, indent: String) {
        switch self {
        case let .object(members):
            guard !members.isEmpty else { text += "{}"; return }
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += indent + "  "
                CompactJSONObject.appendQuoted(member.key, to: &text)
                text += ": "
                member.value.write(into: &text, indent: indent + "  ")
                text += index < members.count - 1 ? ",\n" : "\n"
            }
            text += indent + "}"
        case let .array(elements):
            guard !elements.isEmpty else { text += "[]"; return }
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += indent + "  "
                element.write(into: &text, indent: indent + "  ")
                text += index < elements.count - 1 ? ",\n" : "\n"
            }
            text += indent + "]"
        case let .string(value): CompactJSONObject.appendQuoted(value, to: &text)
        case let .number(value): text += value
        case let .bool(value): text += value ? "true" : "false"
        case .null: text += "null"
        }
    }
}
