import FileSystem
import FoundationEssentials
import Multipart
import UploadModel

/// Turns a job spec into a form, and the form into a request ready for a transport.
public struct FormBuilder: Sendable {
    /// The encoder that prepares bodies (random boundary unless fixed for tests).
    public var encoder: MultipartEncoder
    private let targets = UploadTargetMemo()

    /// Creates a builder.
    ///
    /// - Parameter encoder: The encoder.
    public init(encoder: MultipartEncoder = MultipartEncoder()) {
        self.encoder = encoder
    }

    /// The form a spec stands for: text fields and extra file parts in the order they were given
    /// (each extra file part after the text fields it followed, ``ExtraFilePart/textFieldsBefore``),
    /// then the job's own files under `fileField` (several in bundle mode, RFC 7578 §4.3).
    ///
    /// - Parameter spec: The job spec.
    /// - Returns: The form.
    public func form(for spec: UploadJobSpec) -> MultipartForm {
        var form = MultipartForm()
        var fileParts = spec.extraFileParts[...]
        func addFileParts(upTo textFieldCount: Int?) {
            while let part = fileParts.first, textFieldCount.map({ (part.textFieldsBefore ?? .max) <= $0 }) ?? true {
                form.addFile(name: part.name, path: part.path, filename: part.filename, contentType: part.contentType)
                fileParts.removeFirst()
            }
        }
        for (index, field) in spec.textFields.enumerated() {
            addFileParts(upTo: index)
            form.addText(name: field.name, value: field.value)
        }
        addFileParts(upTo: nil)
        for file in spec.files {
            form.addFile(name: spec.fileField, path: file.path, filename: file.partFilename)
        }
        return form
    }

    /// The request message a spec makes, checked: target, method, headers and a prepared body.
    ///
    /// Checks, in order: the URL and method; the headers; the encoder's checks of every file
    /// (missing, directory, not regular, unreadable); then that no job file changed since it was
    /// queued. A resumable request (``UploadJobSpec/sendsResumably``) carries the creation fields
    /// of resumable uploads last (``ResumableUploadFields/creationFields``). The job's
    /// `Idempotency-Key` follows the user's headers, unless one of them is an `Idempotency-Key`.
    /// `ferry send --dry-run` prints exactly this message (without a key: no job exists yet).
    ///
    /// - Parameters:
    ///   - spec: The job spec.
    ///   - idempotencyKey: The job's key, when its requests carry one.
    /// - Returns: The message, with every header Ferry sends (`RequestHeaders`).
    /// - Throws: `UploadError.requestInvalid`, `.fileChangedSinceQueued` or `.multipartFailed`.
    public func message(for spec: UploadJobSpec, idempotencyKey: IdempotencyKey? = nil) throws(UploadError) -> RequestMessage {
        let target: UploadTarget
        do {
            target = try targets.target(for: spec.url)
        } catch {
            throw .requestInvalid(reason: .invalidTarget(error))
        }
        guard HTTPToken.isToken(spec.method) else { throw .requestInvalid(reason: .invalidMethod(spec.method)) }
        do {
            for header in spec.headers { try RequestHeaders.check(header) }
        } catch {
            throw .requestInvalid(reason: .invalidHeader(error))
        }
        let body: MultipartBody
        do {
            body = try encoder.prepare(form(for: spec))
        } catch {
            throw .multipartFailed(error)
        }
        let inspected = Dictionary(body.files.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        for file in spec.files where Self.hasChanged(file, inspected: inspected[file.path]) {
            throw .fileChangedSinceQueued(path: file.path)
        }
        do {
            var userHeaders = spec.headers
            if let idempotencyKey, !userHeaders.contains(where: { HTTPToken.namesEqual($0.name, IdempotencyKeyHeader.name) }) {
                userHeaders.append(idempotencyKey.header)
            }
            var headers = try RequestHeaders.build(target: target, userHeaders: userHeaders,
                                                   contentType: body.contentType, contentLength: body.contentLength)
            if spec.sendsResumably { headers += ResumableUploadFields.creationFields }
            return RequestMessage(method: spec.method, target: target, headers: headers, body: body.requestBody)
        } catch {
            throw .requestInvalid(reason: .invalidHeader(error))
        }
    }

    /// Whether a job's file changed since it was queued, judged from the snapshot the encoder
    /// has just taken of it (an empty file has none: it is examined again).
    private static func hasChanged(_ file: QueuedFile, inspected: FileSnapshot?) -> Bool {
        guard let inspected else { return file.hasChangedSinceQueued() }
        return file.hasChanged(comparedTo: inspected.stamp)
    }

    /// Builds one attempt's request.
    ///
    /// - Parameters:
    ///   - spec: The job spec.
    ///   - jobID: The job's ID.
    ///   - attempt: The attempt's number.
    ///   - connectTimeout: The connect timeout.
    ///   - idleTimeout: The idle timeout.
    ///   - idempotencyKey: The job's key, when its requests carry one.
    /// - Returns: The request, carrying the message from `message(for:idempotencyKey:)`.
    /// - Throws: See `message(for:idempotencyKey:)`.
    public func request(
        for spec: UploadJobSpec,
        jobID: UploadJobID,
        attempt: Int,
        connectTimeout: Duration,
        idleTimeout: Duration,
        idempotencyKey: IdempotencyKey? = nil
    ) throws(UploadError) -> UploadRequest {
        // The transport sends it as a resumable upload exactly when the spec does.
        var connection = spec.connection
        connection.resumesUploads = spec.sendsResumably
        return UploadRequest(message: try message(for: spec, idempotencyKey: idempotencyKey), jobID: jobID, attempt: attempt,
                             connectTimeout: connectTimeout, idleTimeout: idleTimeout, connection: connection)
    }
}
