import FileSystem
import NIOCore
import NIOPosix

/// Reads one `multipart/form-data` request body, chunk by chunk, with ``FormDataParser``: text
/// fields are gathered in memory (up to a limit), file parts are streamed to new files in the
/// upload directory as their bytes arrive.
///
/// A header value that is not UTF-8 (a filename sent as raw bytes) is decoded with
/// `FileSystemName`, so the file is saved under those bytes. A body counts as complete only
/// when the parser has seen the closing boundary (see ``finish()``).
///
/// Not thread-safe: one request's task owns it, feeds it with ``consume(_:)`` and ends with
/// either ``finish()`` or ``abandon()``; after a thrown error it **must** call ``abandon()``.
final class FormDataReader {
    /// The part being read.
    private enum Part {
        /// Between parts: the next part's headers are being gathered.
        case none
        case field(name: String, value: ByteBuffer)
        case file(PartHeaders, PartFileWriter)
        /// A file part whose bytes are thrown away (the request is failing on purpose).
        case discarded
    }

    private var parser: FormDataParser
    private let directory: String
    private let limits: ReceiverLimits
    private let faults: FaultInjector
    private let pool: NIOThreadPool
    private let slots: UploadSlots

    private var part: Part = .none
    private var partCount = 0
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
    ///   - slots: The server's upload slots: each file part holds one while its file is open.
    init(
        boundary: String,
        directory: String,
        limits: ReceiverLimits,
        faults: FaultInjector,
        keepsFiles: Bool,
        pool: NIOThreadPool,
        slots: UploadSlots
    ) {
        self.parser = FormDataParser(boundary: boundary)
        self.directory = directory
        self.limits = limits
        self.faults = faults
        self.keepsFiles = keepsFiles
        self.pool = pool
        self.slots = slots
    }

    /// Parses the next chunk of the body and carries out what it contained.
    ///
    /// - Parameter chunk: The next bytes of the request body.
    /// - Throws: ``ReceiverError`` for malformed multipart, exceeded limits, no free upload slot
    ///   for a file part, or storage failures.
    func consume(_ chunk: ByteBuffer) async throws(ReceiverError) {
        parser.feed(chunk)
        while let event = try parser.next() {
            try await handle(event)
        }
    }

    /// Checks the body ended with its closing boundary and returns what it delivered.
    ///
    /// - Returns: The fields and files of the request.
    /// - Throws: ``ReceiverError`` with `missingClosingBoundary` when the body was incomplete.
    func finish() async throws(ReceiverError) -> UploadRecord {
        try parser.finish()
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

    private func handle(_ event: FormDataParser.Event) async throws(ReceiverError) {
        switch event {
        case .partBegan(let headers):
            try await beginPart(headers.map { ($0.name, Self.decode($0.value)) })
        case .content(let buffer):
            try await append(buffer)
        case .partEnded:
            try await endPart()
        }
    }

    /// A header value as text: UTF-8 as itself, other bytes (a filename sent raw) with
    /// `FileSystemName`, which keeps every byte.
    private static func decode(_ value: [UInt8]) -> String {
        String(validating: value, as: UTF8.self) ?? FileSystemName.decode(value)
    }

    private func beginPart(_ headerLines: [(name: String, value: String)]) async throws(ReceiverError) {
        partCount += 1
        if partCount > limits.maxParts {
            throw .requestRejected(reason: .tooManyParts(limit: limits.maxParts))
        }
        let headers = try PartHeaders(headers: headerLines)
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
        let writer = try await PartFileWriter.create(named: SafeFilename(filename), in: directory, pool: pool, slots: slots)
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
            let (savedAs, size, sha256) = try await writer.finish()
            files.append(
                UploadedFile(
                    field: headers.name,
                    filename: FileSystemName.escaped(headers.filename ?? ""),
                    savedAs: FileSystemName.escaped(savedAs),
                    size: size,
                    contentType: headers.contentType ?? "application/octet-stream",
                    sha256: sha256
                ))
        }
    }
}
