import Multipart
import MultipartKit
import NIOCore
import NIOPosix

/// Reads one `multipart/form-data` request body, chunk by chunk, with multipart-kit's streaming
/// `MultipartParser`: text fields are gathered in memory (up to a limit), file parts are streamed
/// to new files in the upload directory as their bytes arrive.
///
/// The parser's callbacks only record events; after each chunk the events are carried out
/// (files created, bytes written), so the blocking work can be awaited. A header value that is
/// not UTF-8 (a filename sent as raw bytes) is taken from ``RawHeaderScanner`` and decoded with
/// `FileSystemName`, so the file is saved under those bytes. A body counts as complete
/// only when the parser has seen the closing boundary (see ``finish()``).
///
/// Not thread-safe: one request's task owns it, feeds it with ``consume(_:)`` and ends with
/// either ``finish()`` or ``abandon()``; after a thrown error it **must** call ``abandon()``.
final class FormDataReader {
    /// What the parser reported, in order.
    private enum Event {
        case header(name: String, value: String)
        case body(ByteBuffer)
        case partComplete
    }

    /// The part being read.
    private enum Part {
        /// Between parts: the next part's headers are being gathered.
        case none
        case field(name: String, value: ByteBuffer)
        case file(PartHeaders, PartFileWriter)
        /// A file part whose bytes are thrown away (the request is failing on purpose).
        case discarded
    }

    /// The most bytes accepted without the parser reporting anything (preamble, one part's
    /// headers, epilogue); it bounds the memory the parser spends on header lines.
    static let maximumSilentBytes = 64 * 1024

    private let parser: MultipartParser
    private var rawHeaders: RawHeaderScanner
    private let boundary: String
    private let directory: String
    private let limits: ReceiverLimits
    private let faults: FaultInjector
    private let pool: NIOThreadPool

    private var events: [Event] = []
    private var partHeaders: [(name: String, value: String)] = []
    private var part: Part = .none
    private var partCount = 0
    private var silentBytes = 0
    private var fields: [String: [String]] = [:]
    private var files: [UploadedFile] = []
    /// Every file this request created, kept or not, so ``abandon()`` can delete them.
    private var createdFiles: [PartFileWriter] = []
    private var keepsFiles: Bool

    /// The first `--fail-first` hit in this body: the filename and its attempt number.
    private(set) var failFirstHit: (filename: String, attempt: Int)?

    /// Creates a reader for one request body.
    ///
    /// - Parameters:
    ///   - boundary: The boundary from the request's `Content-Type`.
    ///   - directory: The upload directory (absolute).
    ///   - limits: The most parts and the largest text field accepted (the body's size is the
    ///     handler's to check).
    ///   - faults: Counts attempts per filename for `--fail-first`.
    ///   - keepsFiles: `false` to read and check the body but store nothing (a failing request).
    ///   - pool: Runs the blocking file calls.
    init(
        boundary: String,
        directory: String,
        limits: ReceiverLimits,
        faults: FaultInjector,
        keepsFiles: Bool,
        pool: NIOThreadPool
    ) {
        self.parser = MultipartParser(boundary: boundary)
        self.rawHeaders = RawHeaderScanner(boundary: boundary)
        self.boundary = boundary
        self.directory = directory
        self.limits = limits
        self.faults = faults
        self.keepsFiles = keepsFiles
        self.pool = pool
        parser.onHeader = { [unowned self] name, value in events.append(.header(name: name, value: value)) }
        parser.onBody = { [unowned self] buffer in events.append(.body(buffer)) }
        parser.onPartComplete = { [unowned self] in events.append(.partComplete) }
    }

    /// Parses the next chunk of the body and carries out what it contained.
    ///
    /// - Parameter chunk: The next bytes of the request body.
    /// - Throws: ``ReceiverError`` for malformed multipart, exceeded limits or storage failures.
    func consume(_ chunk: ByteBuffer) async throws(ReceiverError) {
        rawHeaders.scan(chunk)
        if rawHeaders.sawNonASCIIHeaderName {
            // Before the parser sees it: multipart-kit traps on such a name (Fuzz/, issue 24).
            throw .requestRejected(reason: .malformedPartHeaders(detail: "a part header name is not ASCII"))
        }
        do {
            try parser.execute(chunk)
        } catch {
            throw .requestRejected(reason: .malformedBody(detail: "multipart syntax error (bad part headers or boundary)"))
        }
        if events.isEmpty {
            silentBytes += chunk.readableBytes
            if silentBytes > Self.maximumSilentBytes {
                throw .requestRejected(
                    reason: .malformedPartHeaders(detail: "more than \(Self.maximumSilentBytes) bytes of headers or preamble"))
            }
            return
        }
        silentBytes = 0
        let batch = events
        events.removeAll(keepingCapacity: true)
        for event in batch {
            try await handle(event)
        }
    }

    /// Checks the body ended with its closing boundary and returns what it delivered.
    ///
    /// multipart-kit 4 does not say whether it reached the end, so the reader feeds it a closing
    /// delimiter: after a real closing boundary the parser is in its epilogue and ignores it
    /// silently; in every other state it either reports an event or throws.
    /// - Returns: The fields and files of the request.
    /// - Throws: ``ReceiverError`` with `missingClosingBoundary` when the body was incomplete.
    func finish() async throws(ReceiverError) -> UploadRecord {
        events.removeAll()
        var complete = true
        do {
            try parser.execute("\r\n--\(boundary)--\r\n")
        } catch {
            complete = false
        }
        if !events.isEmpty { complete = false }
        events.removeAll()
        guard complete, case .none = part else {
            throw .requestRejected(reason: .missingClosingBoundary)
        }
        return UploadRecord(fields: fields, files: files)
    }

    /// Stops storing: deletes every file this request created so far and discards the rest.
    func discardFiles() async {
        keepsFiles = false
        if case .file = part { part = .discarded }
        for writer in createdFiles {
            await writer.discard()
        }
        createdFiles.removeAll()
        files.removeAll()
    }

    /// Gives up on the request: deletes every file it created.
    func abandon() async {
        await discardFiles()
    }

    private func handle(_ event: Event) async throws(ReceiverError) {
        switch event {
        case .header(let name, let value):
            partHeaders.append((name, Self.value(value, named: name, raw: rawHeaders.next())))
            if partHeaders.count > 64 {
                throw .requestRejected(reason: .malformedPartHeaders(detail: "a part has more than 64 headers"))
            }
        case .body(let buffer):
            if case .none = part { try await beginPart() }
            try await append(buffer)
        case .partComplete:
            if case .none = part { try await beginPart() }
            try await endPart()
        }
    }

    /// The header value as the parser decoded it, or, when it could not (not UTF-8: it gives
    /// ""), the raw bytes of the same line decoded with `FileSystemName`.
    private static func value(_ value: String, named name: String, raw: RawHeaderScanner.Line?) -> String {
        guard value.isEmpty, let raw, !raw.value.isEmpty,
            String(decoding: raw.name, as: UTF8.self).lowercased() == name.lowercased()
        else { return value }
        return FileSystemName.decode(raw.value)
    }

    private func beginPart() async throws(ReceiverError) {
        partCount += 1
        if partCount > limits.maxParts {
            throw .requestRejected(reason: .tooManyParts(limit: limits.maxParts))
        }
        let headers = try PartHeaders(headers: partHeaders)
        partHeaders.removeAll()
        guard let filename = headers.filename else {
            part = .field(name: headers.name, value: ByteBuffer())
            return
        }
        if let attempt = faults.recordAttempt(filename: filename), failFirstHit == nil {
            failFirstHit = (filename, attempt)
            await discardFiles()
        }
        guard keepsFiles else {
            part = .discarded
            return
        }
        let writer = try await PartFileWriter.create(named: SafeFilename(filename), in: directory, pool: pool)
        createdFiles.append(writer)
        part = .file(headers, writer)
    }

    private func append(_ buffer: ByteBuffer) async throws(ReceiverError) {
        switch part {
        case .none, .discarded:
            break
        case .field(let name, var value):
            if value.readableBytes + buffer.readableBytes > limits.maxFieldSize {
                throw .requestRejected(reason: .fieldTooLarge(name: name, limit: limits.maxFieldSize))
            }
            part = .none  // drop the reference so the append does not copy the storage
            var buffer = buffer
            value.writeBuffer(&buffer)
            part = .field(name: name, value: value)
        case .file(_, let writer):
            try await writer.append(buffer)
        }
    }

    private func endPart() async throws(ReceiverError) {
        let finished = part
        part = .none
        switch finished {
        case .none, .discarded:
            break
        case .field(let name, let value):
            fields[name, default: []].append(String(decoding: value.readableBytesView, as: UTF8.self))
        case .file(let headers, let writer):
            let (size, sha256) = try await writer.finish()
            files.append(
                UploadedFile(
                    field: headers.name,
                    filename: FileSystemName.escaped(headers.filename ?? ""),
                    savedAs: FileSystemName.escaped(writer.savedAs),
                    size: size,
                    contentType: headers.contentType ?? "application/octet-stream",
                    sha256: sha256
                ))
        }
    }
}
