import FileSystem
import Glibc
import Multipart

extension CommandLine {
    /// The arguments after the program name, decoded from the raw `argv` bytes with
    /// `FileSystemName.decode`, so a path argument that is not UTF-8 still names its file.
    /// (`CommandLine.arguments` replaces such bytes with U+FFFD.)
    static var fileSystemArguments: [String] {
        (1..<Int(argc)).compactMap { index in
            unsafeArgv[index].map { argument in
                FileSystemName.decode(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
            }
        }
    }
}
