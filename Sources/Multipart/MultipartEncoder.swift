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
        let delimiter = Array("--\(boundary.value)".utf8)
        var segments: [BodySegment] = []
        var pending: [UInt8] = []
        for part in form.parts {
            pending += delimiter + crlf
            pending += try headerBlock(for: part)
            switch part.content {
            case let .text(value):
                let bytes = Array(LineBreaks.normalizedToCRLF(value).utf8)
                guard !bytes.contains(subsequence: delimiter) else { throw .boundaryInContent(partName: part.name) }
                pending += bytes
            case let .file(.bytes(bytes)):
                guard !bytes.contains(subsequence: delimiter) else { throw .boundaryInContent(partName: part.name) }
                pending += bytes
            case let .file(.path(path)):
                let snapshot = try FileInspector.inspect(path)
                segments.append(.bytes(pending))
                pending = []
                if snapshot.size > 0 { segments.append(.wholeFile(snapshot)) }
            }
            pending += crlf
        }
        pending += delimiter + Array("--".utf8) + crlf
        segments.append(.bytes(pending))
        return MultipartBody(boundary: boundary, segments: segments)
    }

    /// The header lines of a part and the blank line that ends them.
    ///
    /// Everything is UTF-8 except the filename, which is written as the file-system bytes it
    /// stands for (``FileSystemName/bytes(of:)``): a file whose name is not UTF-8 is sent under
    /// its real name, raw, as curl sends it.
    private func headerBlock(for part: FormPart) throws(MultipartError) -> [UInt8] {
        var bytes = Array("Content-Disposition: form-data; name=\"\(try FieldEscaping.escapeName(part.name))\"".utf8)
        var contentType = part.contentType
        if case let .file(source) = part.content {
            let filename = part.filename ?? Self.defaultFilename(for: source)
            bytes += Array("; filename=\"".utf8) + FileSystemName.bytes(of: try FieldEscaping.escapeFilename(filename))
                + Array("\"".utf8)
            contentType = mimeTypes.contentType(override: part.contentType, filename: filename)
        }
        var text = "\r\n"
        if let contentType {
            try HeaderValidation.checkValue(contentType, field: .contentType(contentType))
            text += "Content-Type: \(contentType)\r\n"
        }
        for header in part.extraHeaders {
            try HeaderValidation.check(header)
            text += "\(header.name): \(header.value)\r\n"
        }
        text += "\r\n"
        return bytes + Array(text.utf8)
    }

    private static func defaultFilename(for source: FileSource) -> String {
        switch source {
        case let .path(path): return PathName.lastComponent(of: path)
        case .bytes: return ""
        }
    }
}

private let crlf: [UInt8] = [0x0D, 0x0A]
