import FerryResources
import Foundation

/// Content types by filename extension.
///
/// Ferry's own table (shipped in `Resources/mime.types`) is consulted first, so a type does not
/// change from one machine to the next; `/etc/mime.types`, where present, adds the extensions
/// Ferry's table does not list. Lookups are case-insensitive.
public struct MIMETypes: Sendable {
    /// The type sent when nothing else is known.
    public static let fallback = "application/octet-stream"

    /// Ferry's table merged with `/etc/mime.types`, loaded once.
    public static let standard: MIMETypes = {
        var table = MIMETypes(text: "")
        if let url = BundledResources.mimeTypesURL, let text = try? String(contentsOf: url, encoding: .utf8) {
            table.merge(MIMETypes(text: text))
        }
        if let text = try? String(contentsOfFile: "/etc/mime.types", encoding: .utf8) {
            table.merge(MIMETypes(text: text))
        }
        return table
    }()

    private var typesByExtension: [String: String]

    /// Parses a table in `mime.types` format: a type, then its extensions, `#` starts a comment.
    ///
    /// Where an extension is listed twice, its first type wins.
    ///
    /// - Parameter text: The table.
    public init(text: String) {
        typesByExtension = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let content = line.prefix(while: { $0 != "#" })
            let words = content.split(whereSeparator: \.isWhitespace)
            guard let type = words.first, words.count > 1 else { continue }
            for ext in words.dropFirst() where typesByExtension[ext.lowercased()] == nil {
                typesByExtension[ext.lowercased()] = String(type)
            }
        }
    }

    /// Adds the other table's extensions that this table does not have.
    ///
    /// - Parameter other: A table of lower precedence.
    public mutating func merge(_ other: MIMETypes) {
        typesByExtension.merge(other.typesByExtension) { mine, _ in mine }
    }

    /// Number of extensions known.
    public var count: Int { typesByExtension.count }

    /// The type for a filename's extension, or nil when the extension is unknown or absent.
    ///
    /// - Parameter filename: A filename such as `Photo.JPG`.
    /// - Returns: `image/jpeg`, or nil.
    public func type(forFilename filename: String) -> String? {
        guard let ext = PathName.lowercasedExtension(of: filename) else { return nil }
        return typesByExtension[ext]
    }

    /// The content type a file part gets: an explicit override wins; else by extension; else
    /// `application/octet-stream`.
    ///
    /// - Parameters:
    ///   - override: An explicit content type, if any.
    ///   - filename: The filename whose extension is looked up.
    /// - Returns: The content type.
    public func contentType(override: String?, filename: String) -> String {
        override ?? type(forFilename: filename) ?? MIMETypes.fallback
    }
}
