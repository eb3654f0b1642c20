/// A lossless mapping between file-system names (bytes, not necessarily UTF-8) and Swift
/// strings.
///
/// Linux file names are byte strings. Decoding them as UTF-8 with replacement (`U+FFFD`) loses
/// the bytes, so the file can no longer be opened. This mapping keeps every byte:
///
/// - well-formed UTF-8 decodes as itself,
/// - except that every byte that is not part of well-formed UTF-8 (overlongs, surrogates such
///   as `ED A0 80`, truncated sequences, stray continuation bytes, `F5`…`FF`) becomes the
///   private-use scalar `U+EF00 + byte`,
/// - and every byte of a well-formed sequence that decodes to a scalar of ``mappedRange`` is
///   mapped the same way, byte by byte, so a name really holding such a scalar stays lossless.
///
/// Encoding maps ``mappedRange`` back to the single byte and every other scalar to its UTF-8.
/// `bytes(of: decode(b)) == b` for every byte string `b`. The converse holds for every string
/// that came from `decode` (or holds no scalar of that range): a string typed by a person that
/// holds a real `U+EFE9` encodes to the byte `0xE9`.
///
/// Only bytes `80`…`FF` can be outside well-formed UTF-8, so the range is `U+EF80`…`U+EFFF`:
/// `U+EF00`…`U+EF7F` are ordinary scalars. So no string, typed or decoded, encodes to an ASCII
/// byte it does not show: no hidden `/`, NUL, quote, CR or LF.
public enum FileSystemName {
    /// The scalars that stand for single bytes: `U+EF00 + byte`, for bytes `80`…`FF`.
    public static let mappedRange: ClosedRange<UInt32> = 0xEF80...0xEFFF

    /// Decodes file-system bytes (a name or a whole path) losslessly.
    ///
    /// - Parameter bytes: The bytes, as `readdir`, `getcwd` or `argv` gave them.
    /// - Returns: The string; undecodable bytes are `U+EF00 + byte`.
    public static func decode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        decodeAny(bytes)
    }

    /// Decodes file-system bytes in memory, such as an `argv` entry: `decode(_:)` without the
    /// cost of a generic collection for the common case, a name that is all ASCII (a command line
    /// of 100,000 paths is decoded at start-up).
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: The string; undecodable bytes are `U+EF00 + byte`.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return decodeAny(bytes)
    }

    private static func decodeAny<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if mappedRange.contains(scalar.value) {
                    scalars.append(contentsOf: encoded.map(mapped))
                } else {
                    scalars.append(scalar)
                }
                offset += encoded.count
            case let .error(length):
                scalars.append(contentsOf: bytes[offset..<offset + length].map(mapped))
                offset += length
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// Whether a string's file-system bytes may differ from its own UTF-8 (it holds scalars of
    /// ``mappedRange``); when not, the string is its bytes as text, and ``bytes(of:)`` its UTF-8.
    ///
    /// - Parameter name: A name or path made by ``decode(_:)``.
    /// - Returns: `false` when ``bytes(of:)`` is exactly `name.utf8`.
    public static func mayHoldMappedBytes(_ name: String) -> Bool {
        name.utf8.contains(mappedLeadByte)
    }

    /// The file-system bytes a string stands for.
    ///
    /// - Parameter name: A name or path, usually one made by ``decode(_:)``.
    /// - Returns: Scalars of ``mappedRange`` as single bytes, everything else as UTF-8.
    public static func bytes(of name: String) -> [UInt8] {
        guard name.utf8.contains(mappedLeadByte) else { return Array(name.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if mappedRange.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - 0xEF00))
            } else {
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return bytes
    }

    /// Whether a string stands for bytes that are not valid UTF-8 (so showing it needs escapes,
    /// and a script needs the bytes themselves to find the file).
    ///
    /// - Parameter name: A name or path made by ``decode(_:)``.
    /// - Returns: `true` when ``bytes(of:)`` is not well-formed UTF-8.
    public static func isUndecodable(_ name: String) -> Bool {
        guard name.utf8.contains(mappedLeadByte) else { return false }
        return String(validating: bytes(of: name), as: UTF8.self) == nil
    }

    /// The string with each mapped byte written as `\xNN` and everything else as it is: how
    /// error messages name a path. (Screens escape control characters too; see FerryApp's
    /// `String.displayablePath`.)
    ///
    /// - Parameter name: A name or path made by ``decode(_:)``.
    /// - Returns: Text without scalars of ``mappedRange``.
    public static func escaped(_ name: String) -> String {
        guard name.utf8.contains(mappedLeadByte) else { return name }
        var result = ""
        for scalar in name.unicodeScalars {
            if mappedRange.contains(scalar.value) {
                result += "\\x" + String(scalar.value - 0xEF00, radix: 16, uppercase: true)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Calls `body` with the NUL-terminated file-system bytes of a path, for `open`, `stat` and
    /// the like.
    ///
    /// A path holding a NUL cannot name a file; `body` then gets the empty path, so the call
    /// fails (`ENOENT`) instead of acting on a truncated path.
    ///
    /// - Parameters:
    ///   - path: A path, usually one made by ``decode(_:)``.
    ///   - body: Runs with the C string; the pointer **must** not escape it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public static func withFileSystemPath<R, E: Error>(
        _ path: String, _ body: (UnsafePointer<CChar>) throws(E) -> R
    ) throws(E) -> R {
        if !path.utf8.contains(where: { $0 == 0 || $0 == mappedLeadByte }) {
            // Most paths: the string's own UTF-8 is the name, NUL-terminated in place.
            let result = path.withCString { pointer in Result { () throws(E) -> R in try body(pointer) } }
            return try result.get()
        }
        var bytes = path.utf8.contains(0) ? [] : bytes(of: path).map { CChar(bitPattern: $0) }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(E) -> R in try body(buffer.baseAddress!) }
    }

    /// The first UTF-8 byte of every scalar in ``mappedRange`` (`EE BE 80`…`EE BF BF`).
    private static let mappedLeadByte: UInt8 = 0xEE

    private static func mapped(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0xEF00 + UInt32(byte))!
    }
}
