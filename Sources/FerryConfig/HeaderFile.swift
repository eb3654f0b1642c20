import Glibc
import Multipart
import UploadModel

/// Request headers read from a file, as curl (7.55 and later) reads `-H @FILE`: one
/// `Name: value` per line, LF or CRLF line ends, blank lines and lines starting with `#`
/// skipped. Secrets (`Authorization: Bearer …`) then need not be in the command line.
public enum HeaderFile {
    /// Reads and parses a header file.
    ///
    /// - Parameter path: The file's path.
    /// - Returns: The headers, in the file's order.
    /// - Throws: `HeaderFileError` when the file cannot be read or a line is not `Name: value`.
    public static func read(_ path: String) throws(HeaderFileError) -> [HeaderField] {
        try parse(try contents(of: path), path: path)
    }

    /// Parses a header file's text.
    ///
    /// - Parameters:
    ///   - text: The file's content.
    ///   - path: The file's path, for errors.
    /// - Returns: The headers, in order.
    /// - Throws: `HeaderFileError.malformedLine` for the first line that is not `Name: value`.
    public static func parse(_ text: String, path: String) throws(HeaderFileError) -> [HeaderField] {
        var headers: [HeaderField] = []
        // CRLF is one `Character`, so it is a line end of its own.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, line) in lines.enumerated() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            guard let header = HeaderField.parse(String(line)) else {
                throw .malformedLine(path: path, line: index + 1)
            }
            headers.append(header)
        }
        return headers
    }

    /// The whole content of a file, read with `read(2)` (its bytes as UTF-8, invalid sequences
    /// replaced).
    private static func contents(of path: String) throws(HeaderFileError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, message: message(for: errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0 {
                return String(decoding: bytes, as: UTF8.self)
            } else if errno != EINTR {
                throw .unreadable(path: path, message: message(for: errno))
            }
        }
    }

    /// The C library's text for an `errno` value, in lower case as Ferry's messages read
    /// ("no such file or directory").
    private static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text).lowercased()
    }
}
