import FileSystem

/// Encodes a form as RFC 7578 `multipart/form-data`.
///
/// `prepare` checks every file, computes the exact length from file sizes without reading the
/// files, and returns a `MultipartBody` whose readers stream it.
public struct MultipartEncoder: Sendable {
    /// The boundary to use; nil draws a new random one for each body.
    public var boundary: Boundary?
    /// The table used for file parts without an explicit content type.
    public var mimeTypes: MIMETypes

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - boundary: A fixed boundary (for tests); nil for a new random boundary per body.
    ///   - mimeTypes: The content-type table.
    public init(boundary: Boundary? = nil, mimeTypes: MIMETypes = .standard) {
        self.boundary = boundary
        self.mimeTypes = mimeTypes
    }

    /// Checks a form and lays out its body.
    ///
    /// - Parameter form: The parts, in wire order.
    /// - Returns: The body, ready to stream.
    /// - Throws: `MultipartError` naming the first part or file that cannot be sent.
    public func prepare(_ form: MultipartForm) throws(MultipartError) -> MultipartBody {
        let boundary = self.boundary ?? Boundary.random()
        var delimiter: [UInt8] = []
        delimiter.reserveCapacity(2 + boundary.value.utf8.count)
        delimiter.append(contentsOf: "--".utf8)
        delimiter.append(contentsOf: boundary.value.utf8)
        var segments: [BodySegment] = []
        segments.reserveCapacity(2 * form.parts.count + 1)
        // The bytes between files, built in place: a part's head is a few hundred bytes.
        var pending: [UInt8] = []
        pending.reserveCapacity(Self.headRoom)
        for part in form.parts {
            pending += delimiter
            pending += crlf
            try appendHeaderBlock(for: part, to: &pending)
            switch part.content {
            case let .text(value):
                // As given, line breaks included, as curl sends `-F`, `<file` and `--form-string`.
                let bytes = Array(value.utf8)
                guard !bytes.contains(subsequence: delimiter) else { throw .boundaryInContent(partName: part.name) }
                pending += bytes
            case let .file(.bytes(bytes)):
                guard !bytes.contains(subsequence: delimiter) else { throw .boundaryInContent(partName: part.name) }
                pending += bytes
            case let .file(.path(path)):
                let snapshot = try FileInspector.inspect(path)
                segments.append(.bytes(pending))
                pending = []
                pending.reserveCapacity(Self.headRoom)
                if snapshot.size > 0 { segments.append(.wholeFile(snapshot)) }
            }
            pending += crlf
        }
        pending += delimiter
        pending.append(contentsOf: "--".utf8)
        pending += crlf
        segments.append(.bytes(pending))
        return MultipartBody(boundary: boundary, segments: segments)
    }

    /// The room reserved for the bytes between two files: a part's head and the closing delimiter.
    private static let headRoom = 256

    /// Appends the header lines of a part and the blank line that ends them.
    ///
    /// Everything is UTF-8 except the filename, which is written as the file-system bytes it
    /// stands for (``FileSystemName/bytes(of:)``): a file whose name is not UTF-8 is sent under
    /// its real name, raw, as curl sends it.
    private func appendHeaderBlock(for part: FormPart, to bytes: inout [UInt8]) throws(MultipartError) {
        bytes.append(contentsOf: "Content-Disposition: form-data; name=\"".utf8)
        bytes.append(contentsOf: try FieldEscaping.escapeName(part.name).utf8)
        bytes.append(UInt8(ascii: "\""))
        var contentType = part.contentType
        if case let .file(source) = part.content {
            let filename = part.filename ?? Self.defaultFilename(for: source)
            bytes.append(contentsOf: "; filename=\"".utf8)
            bytes += FileSystemName.bytes(of: try FieldEscaping.escapeFilename(filename))
            bytes.append(UInt8(ascii: "\""))
            contentType = mimeTypes.contentType(override: part.contentType, filename: filename)
        }
        bytes += crlf
        if let contentType {
            try HeaderValidation.checkValue(contentType, field: .contentType(contentType))
            bytes.append(contentsOf: "Content-Type: ".utf8)
            bytes.append(contentsOf: contentType.utf8)
            bytes += crlf
        }
        for header in part.extraHeaders {
            try HeaderValidation.check(header)
            bytes.append(contentsOf: header.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: header.value.utf8)
            bytes += crlf
        }
        bytes += crlf
    }

    private static func defaultFilename(for source: FileSource) -> String {
        switch source {
        case let .path(path): return PathName.lastComponent(of: path)
        case .bytes: return ""
        }
    }
}

private let crlf: [UInt8] = [0x0D, 0x0A]
