import FileSystem
import Multipart

extension RequestMessage {
    /// The request as the interface's `v` shows it: the request line and every header as sent,
    /// a secret header's value (``NameValuePair/isSecretHeader``, as `CurlCommand` decides) as
    /// ``CurlCommand/mask``; then the body with each part's boundary and headers and text values
    /// as they are, each file's bytes as one line saying how many and from where.
    public var previewLines: [String] {
        var lines = ["\(method) \(target.requestTarget) HTTP/1.1"]
        for header in headers {
            lines.append("\(header.name): \(header.isSecretHeader ? CurlCommand.mask : header.value)")
        }
        lines.append("")
        var pending: [UInt8] = []
        func flush() {
            guard !pending.isEmpty else { return }
            var text = String(decoding: pending, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
            if text.last == "" { text.removeLast() }
            lines += text
            pending = []
        }
        for segment in body.segments {
            switch segment {
            case let .bytes(bytes):
                pending += bytes
            case let .file(snapshot, range):
                pending += Array("[\(range.count) bytes of \(FileSystemName.escaped(snapshot.path))]".utf8)
            }
        }
        flush()
        return lines
    }
}
