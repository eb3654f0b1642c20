import Foundation

/// Who listens on a TCP port, read from `/proc`: whether a process (or one of its descendants,
/// such as `php -S`'s workers) holds the listening socket, not merely whether something answers.
///
/// A test's server is told a port `FreePort` found free a moment before. Another test's server can
/// take that port first; nginx then retries its `bind` for 2.5 s while still running, and a
/// connection to the port reaches the other server (once a TLS test's upload met one that closed
/// it mid-handshake). Asking `/proc` who holds the socket cannot be fooled so.
public enum ListeningSocketOwner {
    /// Whether `pid` or a descendant of it holds a TCP socket listening on `port` (IPv4 or IPv6,
    /// any address).
    ///
    /// - Parameters:
    ///   - pid: The process started.
    ///   - port: The port it was told to listen on.
    /// - Returns: `true` when one of the processes has such a socket among its descriptors.
    public static func listens(pid: Int32, port: Int) -> Bool {
        let inodes = listeningInodes(port: port)
        guard !inodes.isEmpty else { return false }
        return processTree(of: pid).contains { process in
            socketInodes(of: process).contains { inodes.contains($0) }
        }
    }

    /// The inodes of the sockets listening on `port`, from `/proc/net/tcp` and `/proc/net/tcp6`.
    static func listeningInodes(port: Int) -> Set<String> {
        var inodes = Set<String>()
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to the end: `String(contentsOfFile:)` stops after the first read, 4 KiB of a
            // proc file (about 27 sockets), and the test process has thousands.
            guard let handle = FileHandle(forReadingAtPath: table), let data = try? handle.readToEnd() else { continue }
            try? handle.close()
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                guard fields.count > 9, fields[3] == "0A",
                      let colon = fields[1].lastIndex(of: ":"),
                      Int(fields[1][fields[1].index(after: colon)...], radix: 16) == port else { continue }
                inodes.insert(String(fields[9]))
            }
        }
        return inodes
    }

    /// `pid` and every process descended from it (from each `/proc/PID/stat`'s parent), `pid` first.
    public static func processTree(of pid: Int32) -> [Int32] {
        var parents: [Int32: [Int32]] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let child = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let nameEnd = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm)": state, then the parent's pid.
            let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
            parents[parent, default: []].append(child)
        }
        var tree = [pid]
        var index = 0
        while index < tree.count {
            tree += parents[tree[index]] ?? []
            index += 1
        }
        return tree
    }

    /// The inodes of the sockets among a process's descriptors (`socket:[INODE]` links).
    static func socketInodes(of pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return descriptors.compactMap { descriptor in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(descriptor)"),
                  target.hasPrefix("socket:["), target.hasSuffix("]") else { return nil }
            return String(target.dropFirst("socket:[".count).dropLast())
        }
    }
}
