import Glibc

extension FileSystemName {
    /// The current directory (`getcwd`), decoded losslessly, so a relative path resolved
    /// against it still names the file even when a component is not UTF-8.
    ///
    /// - Returns: The absolute path, or nil when `getcwd` fails (the directory was removed).
    public static func currentDirectory() -> String? {
        var capacity = 1024
        while capacity <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: capacity)
            if getcwd(&buffer, capacity) != nil {
                return decode(buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) })
            }
            guard errno == ERANGE else { return nil }
            capacity *= 4
        }
        return nil
    }
}
