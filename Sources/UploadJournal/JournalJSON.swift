import FoundationEssentials
import JSON
import UploadModel

/// Writes the journal's JSON columns — a job's spec and its attempt history — in the shape
/// `JSONEncoder` gives them, which is how the journal always stored them and how
/// `UploadJobRecord` reads them back (with `JSONDecoder`), without `JSONEncoder`'s cost on every
/// row: a queue of small files spent a quarter of its CPU time encoding these columns.
///
/// A spec's request fields (URL, headers, parameters: shared by a batch of jobs) are encoded by
/// `JSONEncoder` once per batch and remembered for as long as this value lives; each job's files
/// and each attempt are written by `CompactJSONObject`. Make one per transaction: the
/// remembered fields are keyed by their storage's identity, which is only stable while the specs
/// that hold it are alive.
struct JournalJSON {
    private let encoder = JSONEncoder()
    private var requestFields: [ObjectIdentifier: String] = [:]

    /// A spec as the journal stores it.
    ///
    /// - Parameter spec: The spec.
    /// - Returns: Its JSON text.
    /// - Throws: What `JSONEncoder` throws for the request fields.
    mutating func spec(_ spec: UploadJobSpec) throws -> String {
        let identity = spec.requestFieldsIdentity
        let fields: String
        if let known = requestFields[identity] {
            fields = known
        } else {
            fields = try spec.requestFieldsJSON(using: encoder)
            requestFields[identity] = fields
        }
        // The request fields' object always has members (its URL): the files go first.
        return "{\"files\":" + Self.files(spec.files) + "," + fields.dropFirst()
    }

    /// A job's files: `[QueuedFile]`'s JSON.
    ///
    /// - Parameter files: The files.
    /// - Returns: The JSON array.
    static func files(_ files: [QueuedFile]) -> String {
        array(files) { file, object in
            object.add("path", file.path)
            object.add("size", file.size)
            object.add("modificationTimeNanoseconds", file.modificationTimeNanoseconds)
            object.add("device", file.stamp?.identity?.device)
            object.add("inode", file.stamp?.identity?.inode)
            object.add("partFilename", file.partFilename)
        }
    }

    /// A job's attempt history: `[UploadAttempt]`'s JSON.
    ///
    /// - Parameter attempts: The attempts, oldest first.
    /// - Returns: The JSON array.
    static func attempts(_ attempts: [UploadAttempt]) -> String {
        array(attempts) { attempt, object in
            object.add("number", attempt.number)
            object.add("outcome", attempt.outcome.rawValue)
            // `Date`'s own encoding: seconds since 2001-01-01 UTC.
            object.add("startedAt", attempt.startedAt?.timeIntervalSinceReferenceDate)
            object.add("duration", json: attempt.duration.map(duration))
            object.add("bytesSent", attempt.bytesSent)
            object.add("totalBytes", attempt.totalBytes)
            object.add("status", attempt.status)
            object.add("error", attempt.error)
            object.add("retryDelay", json: attempt.retryDelay.map(duration))
        }
    }

    /// A JSON array of one object per element, each filled in by `members`.
    private static func array<Element>(_ elements: [Element],
                                       _ members: (Element, inout CompactJSONObject) -> Void) -> String {
        var text = "["
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            var object = CompactJSONObject()
            members(element, &object)
            text += object.finished
        }
        return text + "]"
    }

    /// `Duration`'s own encoding: its attoseconds as a 128-bit number, high word then low word.
    static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let total = Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
        return "[\(Int64(truncatingIfNeeded: total >> 64)),\(UInt64(truncatingIfNeeded: total))]"
    }
}
