import FileSystem
import FoundationEssentials
import Multipart
import UploadModel

/// A tus upload's `Upload-Metadata` header: comma-separated `key base64(value)` pairs.
///
/// Ferry sends `filename` (the file name's bytes, as on disk), `filetype` (its MIME type) and
/// every `-F` text parameter; a parameter named `filename` or `filetype` replaces Ferry's own, so
/// every key appears once, as tus 1.0 requires.
public enum TusMetadata {
    /// Encodes metadata pairs in order.
    ///
    /// - Parameter pairs: Keys (non-empty, without spaces or commas) and value bytes.
    /// - Returns: The header value (`key base64,key base64`); a pair with an empty value is the
    ///   key alone.
    /// - Throws: `UploadError.tusFailed(.metadataKeyInvalid)` for a key tus cannot carry or one
    ///   given twice.
    public static func encode(_ pairs: [(key: String, value: [UInt8])]) throws(UploadError) -> String {
        var items: [String] = []
        var seen: Set<String> = []
        for (key, value) in pairs {
            guard !key.isEmpty, !key.contains(where: { $0 == " " || $0 == "," || $0.isNewline || $0 == "\t" }),
                  seen.insert(key).inserted else {
                throw .tusFailed(reason: .metadataKeyInvalid(key: key))
            }
            items.append(value.isEmpty ? key : key + " " + Data(value).base64EncodedString())
        }
        return items.joined(separator: ",")
    }

    /// The metadata Ferry sends for a file: `filename`, `filetype`, then the text parameters
    /// (which replace `filename` or `filetype` when named so).
    ///
    /// - Parameters:
    ///   - path: The file's path (its last component is the name).
    ///   - fileType: The file's MIME type.
    ///   - parameters: The `-F` text parameters, in order.
    /// - Returns: The header value.
    /// - Throws: `UploadError.tusFailed(.metadataKeyInvalid)` for a parameter name tus cannot carry
    ///   or one given twice.
    public static func header(path: String, fileType: String, parameters: [FormTextField]) throws(UploadError) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        var pairs: [(key: String, value: [UInt8])] = []
        let named = Set(parameters.map(\.name))
        if !named.contains("filename") { pairs.append((key: "filename", value: FileSystemName.bytes(of: name))) }
        if !named.contains("filetype") { pairs.append((key: "filetype", value: Array(fileType.utf8))) }
        for parameter in parameters { pairs.append((key: parameter.name, value: Array(parameter.value.utf8))) }
        return try encode(pairs)
    }
}
