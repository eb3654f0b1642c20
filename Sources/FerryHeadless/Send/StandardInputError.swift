#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why reading the standard input failed.
public struct StandardInputError: Error, Equatable, CustomStringConvertible {
    /// The C library's error number.
    public let errno: Int32

    public var description: String { "cannot read the standard input: \(String(cString: strerror(errno)))" }
}
