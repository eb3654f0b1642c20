import Glibc

/// What Ferry ships besides its code: the MIME table (compiled in) and the demo's sample files
/// (on disk: the browser opens a real folder).
public enum BundledResources {
    /// Ferry's MIME table, in `/etc/mime.types` format.
    public static var mimeTypes: String { BundledMIMETable.text }

    /// The folder of sample files that `ferry --demo` opens the browser on: the installed copy
    /// (`PREFIX/share/ferry/samples` beside `PREFIX/bin/ferry`), else the source tree's
    /// `Resources/samples` (a binary run from its build folder); nil when neither is there.
    public static var samplesDirectory: String? {
        samplesCandidates(executable: executablePath).first(where: isDirectory)
    }

    /// Where the samples may be, in the order they are looked for.
    ///
    /// - Parameters:
    ///   - executable: The running binary's path, if known.
    ///   - sourceFile: This file's path when it was compiled.
    /// - Returns: The installed location (relative to `executable`), then the source tree's.
    static func samplesCandidates(executable: String?, sourceFile: String = #filePath) -> [String] {
        var candidates: [String] = []
        if let executable, let bin = parent(of: executable) {
            candidates.append((parent(of: bin) ?? "") + "/share/ferry/samples")
        }
        if let resources = parent(of: sourceFile) {
            candidates.append(resources + "/samples")
        }
        return candidates
    }

    /// The running binary's path (`/proc/self/exe`), if the kernel says.
    private static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
