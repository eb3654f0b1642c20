/// A name for an uploaded file that can only ever name a file directly inside the upload directory.
///
/// Made from the filename a client sent by these rules, in order:
/// 1. only the last path component is kept (after the last `/` or `\`), so `../../etc/passwd`
///    becomes `passwd` and `C:\Users\me\a.txt` becomes `a.txt`;
/// 2. control characters (C0, DEL, C1), the Unicode line and paragraph separators and the
///    bidirectional override and isolate controls are each replaced by `_`;
/// 3. a name longer than ``maximumByteCount`` UTF-8 bytes is shortened at a character boundary,
///    keeping a short extension;
/// 4. leading dots are removed, so nothing is hidden and `.` or `..` cannot remain;
/// 5. an empty result becomes ``defaultName``.
///
/// Everything else, including spaces, quotes, semicolons and any other UTF-8 (é, 日本, emoji
/// with joiners), is kept exactly. ``candidate(_:)`` gives the names to try when one is taken.
public struct SafeFilename: Sendable, Hashable, CustomStringConvertible {
    /// The name used when nothing is left of the client's filename.
    public static let defaultName = "upload"
    /// The longest name produced, in UTF-8 bytes, leaving room for a `-N` suffix under `NAME_MAX`.
    public static let maximumByteCount = 200

    /// The safe name.
    public let value: String

    /// Makes a safe name from the filename a client sent.
    ///
    /// - Parameter original: The filename as received (already decoded from the header).
    public init(_ original: String) {
        // Scalars, not Characters: "/" followed by a combining mark is one Character that is
        // not "/" (found by Fuzz/), and the name must hold no "/" byte at all.
        let all = original.unicodeScalars
        var lastComponent = all[...]
        if let separator = all.lastIndex(where: { $0 == "/" || $0 == "\\" }) {
            lastComponent = all[all.index(after: separator)...]
        }
        var scalars = String.UnicodeScalarView()
        for scalar in lastComponent {
            scalars.append(Self.isForbidden(scalar) ? "_" : scalar)
        }
        var name = Substring(Self.shortened(String(scalars))).unicodeScalars
        while name.first == "." { name = name.dropFirst() }
        self.value = name.isEmpty ? Self.defaultName : String(name)
    }

    /// The name to try on attempt `attempt`: the name itself for 0, then `stem-N.ext`.
    ///
    /// - Parameter attempt: 0 for the plain name, N ≥ 1 for the N-th alternative.
    /// - Returns: A name with the same guarantees as ``value``.
    public func candidate(_ attempt: Int) -> String {
        guard attempt > 0 else { return value }
        let (stem, pathExtension) = Self.split(value)
        return "\(stem)-\(attempt)\(pathExtension)"
    }

    /// The safe name.
    public var description: String { value }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1 controls
        case 0x2028, 0x2029: return true  // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi embeddings, overrides, isolates
        default: return false
        }
    }

    /// Splits `name` into stem and extension (with its dot); a leading dot is not an extension.
    private static func split(_ name: String) -> (stem: Substring, pathExtension: Substring) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            return (Substring(name), "")
        }
        return (name[..<dot], name[dot...])
    }

    private static func shortened(_ name: String) -> String {
        guard name.utf8.count > maximumByteCount else { return name }
        var (stem, pathExtension) = split(name)
        if pathExtension.utf8.count > 16 {
            stem = Substring(name)
            pathExtension = ""
        }
        let budget = maximumByteCount - pathExtension.utf8.count
        var kept = ""
        var used = 0
        for character in stem {
            let size = character.utf8.count
            if used + size > budget { break }
            kept.append(character)
            used += size
        }
        return kept + pathExtension
    }
}
