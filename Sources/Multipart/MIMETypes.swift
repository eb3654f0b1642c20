import FerryResources
import FileSystem
import FoundationEssentials

/// Content types by filename extension.
///
/// Ferry's own table (compiled in from `Resources/BundledMIMETable.swift`) is consulted first, so a type does not
/// change from one machine to the next; `/etc/mime.types`, where present, adds the extensions
/// Ferry's table does not list. Lookups are case-insensitive.
public struct MIMETypes: Sendable {
    /// The type sent when nothing else is known.
    public static let fallback = "application/octet-stream"

    /// Ferry's table, then `/etc/mime.types` for an extension it does not list. The system's
    /// table (74 KB here) is read only at the first such miss: parsing it took a tenth of a
    /// one-file `ferry send`'s CPU.
    public static let standard = MIMETypes(text: BundledResources.mimeTypes, secondary: { system })

    /// `/etc/mime.types`, read at first use; empty where there is none.
    private static let system = MIMETypes(text: (try? String(contentsOfFile: "/etc/mime.types", encoding: .utf8)) ?? "")

    private var typesByExtension: [String: String]
    /// The table asked when this one does not know an extension.
    private let secondary: (@Sendable () -> MIMETypes)?

    /// Parses a table in `mime.types` format: a type, then its extensions, `#` starts a comment.
    ///
    /// Where an extension is listed twice, its first type wins.
    ///
    /// - Parameters:
    ///   - text: The table.
    ///   - secondary: A table asked for the extensions this one does not list (made when first
    ///     needed), if any.
    public init(text: String, secondary: (@Sendable () -> MIMETypes)? = nil) {
        self.secondary = secondary
        // Parsed as bytes (the format is ASCII): splitting 2,000 lines into `Character`s took
        // about 10 ms, a sixth of a one-file `ferry send`.
        typesByExtension = [:]
        var text = text
        text.withUTF8 { bytes in
            var words: [Slice<UnsafeBufferPointer<UInt8>>] = []
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                let content = line.prefix { $0 != UInt8(ascii: "#") }
                words.removeAll(keepingCapacity: true)
                for word in content.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                    words.append(word)
                }
                guard words.count > 1 else { continue }
                let type = String(decoding: words[0], as: UTF8.self)
                for word in words.dropFirst() {
                    let ext = String(decoding: word.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
                    if typesByExtension[ext] == nil { typesByExtension[ext] = type }
                }
            }
        }
    }

    /// Adds the other table's extensions that this table does not have.
    ///
    /// - Parameter other: A table of lower precedence.
    public mutating func merge(_ other: MIMETypes) {
        typesByExtension.merge(other.typesByExtension) { mine, _ in mine }
    }

    /// Number of extensions this table lists (its secondary table not counted).
    public var count: Int { typesByExtension.count }

    /// The type for a filename's extension, or nil when the extension is unknown or absent.
    ///
    /// - Parameter filename: A filename such as `Photo.JPG`.
    /// - Returns: `image/jpeg`, or nil.
    public func type(forFilename filename: String) -> String? {
        guard let ext = PathName.lowercasedExtension(of: filename) else { return nil }
        return typesByExtension[ext] ?? secondary?().typesByExtension[ext]
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
