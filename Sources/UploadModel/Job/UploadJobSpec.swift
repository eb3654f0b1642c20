import FoundationEssentials
import Multipart

/// What a job sends and where: everything needed to build its request again on any attempt or
/// in a later run. Stored in the journal as JSON (secrets in `headers` included, which is why the
/// journal is private to the user).
///
/// Everything but `files` is held in one immutable shared object: copies of a spec (a batch of
/// jobs made with ``replacingFiles(_:)``, the queue's copies, event payloads) share it, so a job
/// costs its files and little else however long the URL, headers and parameters are. Setting one
/// of those properties gives the spec its own changed copy.
public struct UploadJobSpec: Sendable, Hashable, Codable {
    /// The fields a batch of jobs shares, as a value.
    private struct Fields: Sendable, Hashable {
        var url: String
        var method: String
        var headers: [HeaderField]
        var fileField: String
        var textFields: [FormTextField]
        var extraFileParts: [ExtraFilePart]
        var maximumRetries: Int?
        var connection: ConnectionOptions
        var tus: TusJobOptions?
    }

    /// The shared fields' one copy; immutable, so copies of a spec share it safely.
    private final class Shared: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private enum CodingKeys: String, CodingKey {
        case url, method, headers, fileField, textFields, extraFileParts, files, maximumRetries, connection, tus
    }

    private var shared: Shared

    /// The job's own files, sent last under `fileField`: one normally, several in bundle mode.
    public var files: [QueuedFile]

    /// The target URL (`http` or `https`).
    public var url: String {
        get { shared.fields.url }
        set { change { $0.url = newValue } }
    }

    /// The HTTP method; `POST` unless told otherwise (`-X`).
    public var method: String {
        get { shared.fields.method }
        set { change { $0.method = newValue } }
    }

    /// Extra request headers (`-H`). `Content-Type` and `Content-Length` are set from the body
    /// and any given here are dropped.
    public var headers: [HeaderField] {
        get { shared.fields.headers }
        set { change { $0.headers = newValue } }
    }

    /// The field name the job's files are sent under (`--field`).
    public var fileField: String {
        get { shared.fields.fileField }
        set { change { $0.fileField = newValue } }
    }

    /// Text parameters, sent first, in this order.
    public var textFields: [FormTextField] {
        get { shared.fields.textFields }
        set { change { $0.textFields = newValue } }
    }

    /// Extra file parts (`-F name=@path`), sent after the text fields, in this order.
    public var extraFileParts: [ExtraFilePart] {
        get { shared.fields.extraFileParts }
        set { change { $0.extraFileParts = newValue } }
    }

    /// Automatic retries for this job; nil follows the queue's retry policy. The interface sets
    /// it, so a change of its Retries setting applies to jobs queued afterwards only.
    public var maximumRetries: Int? {
        get { shared.fields.maximumRetries }
        set { change { $0.maximumRetries = newValue } }
    }

    /// How the requests reach the server: trust, client certificate, proxy, redirects, HTTP
    /// version.
    public var connection: ConnectionOptions {
        get { shared.fields.connection }
        set { change { $0.connection = newValue } }
    }

    /// Whether the job is a tus upload (`--tus`; `url` is the creation URL, the text fields its
    /// metadata) and how; nil for a `multipart/form-data` request.
    public var tus: TusJobOptions? {
        get { shared.fields.tus }
        set { change { $0.tus = newValue } }
    }

    /// Creates a job spec.
    ///
    /// - Parameters:
    ///   - url: The target URL.
    ///   - method: The HTTP method.
    ///   - headers: Extra request headers.
    ///   - fileField: The field name for the job's files.
    ///   - textFields: Text parameters.
    ///   - extraFileParts: Extra file parts.
    ///   - files: The job's files with their stamps.
    ///   - maximumRetries: Automatic retries for this job; nil for the queue's policy.
    ///   - connection: How the requests reach the server.
    ///   - tus: The tus options of a tus job; nil for multipart.
    public init(
        url: String,
        method: String = "POST",
        headers: [HeaderField] = [],
        fileField: String = "file",
        textFields: [FormTextField] = [],
        extraFileParts: [ExtraFilePart] = [],
        files: [QueuedFile],
        maximumRetries: Int? = nil,
        connection: ConnectionOptions = ConnectionOptions(),
        tus: TusJobOptions? = nil
    ) {
        shared = Shared(Fields(url: url, method: method, headers: headers, fileField: fileField, textFields: textFields,
                               extraFileParts: extraFileParts, maximumRetries: maximumRetries, connection: connection, tus: tus))
        self.files = files
    }

    /// The same request with other files: how a batch of jobs is made, sharing everything but
    /// the files.
    ///
    /// - Parameter files: The new spec's files.
    /// - Returns: The spec.
    public func replacingFiles(_ files: [QueuedFile]) -> UploadJobSpec {
        var spec = self
        spec.files = files
        return spec
    }

    /// This spec sharing `other`'s request fields when they are equal (specs decoded one by one
    /// from the journal then share them again, as the batch they came from did).
    ///
    /// - Parameter other: A spec decoded before this one.
    /// - Returns: This spec, sharing storage with `other` where it can.
    package func sharingRequest(with other: UploadJobSpec) -> UploadJobSpec {
        guard shared !== other.shared, shared.fields == other.shared.fields else { return self }
        var spec = self
        spec.shared = other.shared
        return spec
    }

    /// Whether two specs share their request fields' storage (tests of the memory layout).
    func sharesRequest(with other: UploadJobSpec) -> Bool {
        shared === other.shared
    }

    /// Whether the job's requests go as resumable uploads: resumable uploads are on
    /// (`ConnectionOptions/resumesUploads`), it is no tus job, and its files are over
    /// ``ResumableUploadFields/smallestResumableBody``.
    public var sendsResumably: Bool {
        connection.resumesUploads && tus == nil && estimatedBytes > ResumableUploadFields.smallestResumableBody
    }

    /// The sum of the sizes of the files the request sends — the queued files and the extra file
    /// parts (unknown sizes count as zero): an estimate of the body's length before it is prepared.
    public var estimatedBytes: Int64 {
        files.reduce(0) { $0 + ($1.size ?? 0) } + extraFileParts.reduce(0) { $0 + ($1.size ?? 0) }
    }

    /// The paths that name the job: its own files, or when it has none (`-F f=@x` without a
    /// FILE) its extra file parts'.
    public var namingPaths: [String] {
        files.isEmpty ? extraFileParts.map(\.path) : files.map(\.path)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(String.self, forKey: .url),
            method: try container.decode(String.self, forKey: .method),
            headers: try container.decode([HeaderField].self, forKey: .headers),
            fileField: try container.decode(String.self, forKey: .fileField),
            textFields: try container.decode([FormTextField].self, forKey: .textFields),
            extraFileParts: try container.decode([ExtraFilePart].self, forKey: .extraFileParts),
            files: try container.decode([QueuedFile].self, forKey: .files),
            maximumRetries: try container.decodeIfPresent(Int.self, forKey: .maximumRetries),
            connection: try container.decodeIfPresent(ConnectionOptions.self, forKey: .connection) ?? ConnectionOptions(),
            tus: try container.decodeIfPresent(TusJobOptions.self, forKey: .tus)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(files, forKey: .files)
        try encodeRequestFields(into: &container)
    }

    /// Everything but the files, as `encode(to:)` writes it.
    private func encodeRequestFields(into container: inout KeyedEncodingContainer<CodingKeys>) throws {
        try container.encode(url, forKey: .url)
        try container.encode(method, forKey: .method)
        try container.encode(headers, forKey: .headers)
        try container.encode(fileField, forKey: .fileField)
        try container.encode(textFields, forKey: .textFields)
        try container.encode(extraFileParts, forKey: .extraFileParts)
        try container.encodeIfPresent(maximumRetries, forKey: .maximumRetries)
        // The defaults are not written: most journals never hold any options.
        if connection != ConnectionOptions() { try container.encode(connection, forKey: .connection) }
        try container.encodeIfPresent(tus, forKey: .tus)
    }

    /// Names the storage of the request fields: specs with the same identity have the same
    /// request fields (while one of them exists).
    package var requestFieldsIdentity: ObjectIdentifier {
        ObjectIdentifier(shared)
    }

    /// The request fields (everything but `files`) as one JSON object, in `encode(to:)`'s shape:
    /// the journal encodes a batch's shared fields once and adds each job's files to them.
    ///
    /// - Parameter encoder: The encoder.
    /// - Returns: The object's JSON text.
    /// - Throws: What `encoder` throws.
    package func requestFieldsJSON(using encoder: JSONEncoder) throws -> String {
        String(decoding: try encoder.encode(RequestFields(spec: self)), as: UTF8.self)
    }

    /// Encodes a spec's request fields alone.
    private struct RequestFields: Encodable {
        let spec: UploadJobSpec

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try spec.encodeRequestFields(into: &container)
        }
    }

    public static func == (lhs: UploadJobSpec, rhs: UploadJobSpec) -> Bool {
        lhs.files == rhs.files && (lhs.shared === rhs.shared || lhs.shared.fields == rhs.shared.fields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(shared.fields)
        hasher.combine(files)
    }

    /// Gives this spec its own shared fields, changed by `body`.
    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = shared.fields
        body(&fields)
        shared = Shared(fields)
    }
}
