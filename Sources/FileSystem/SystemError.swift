import Glibc

/// Text for `errno` values.
public enum SystemError {
    /// The C library's message for an `errno` value, e.g. "Permission denied".
    ///
    /// - Parameter code: The `errno` value.
    /// - Returns: The message.
    public static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
