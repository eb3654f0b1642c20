import FoundationEssentials
import UploadModel

/// The journal's JSON columns — a job's spec, its attempt history, its last error, its tus and
/// resumable checkpoints — written and read through the values' own `Codable` conformances, the
/// one definition of their shape: `JSONEncoder` writes them, `JSONDecoder` reads them back.
///
/// A spec's request fields (URL, headers, parameters: shared by a batch of jobs) are encoded once
/// per batch and remembered for as long as this value lives, and each job's files are added to
/// them: a queue of small files otherwise spent a quarter of its CPU time encoding the same
/// fields again. Make one per transaction: the remembered fields are keyed by their storage's
/// identity, which is only stable while the specs that hold it are alive.
struct JournalJSON {
    private static let decoder = JSONDecoder()
    private let encoder = JSONEncoder()
    private var requestFields: [ObjectIdentifier: String] = [:]

    /// A spec as the journal stores it: `UploadJobSpec`'s `Codable` form.
    ///
    /// - Parameter spec: The spec.
    /// - Returns: Its JSON text.
    /// - Throws: What `JSONEncoder` throws.
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
        return "{\"files\":" + (try text(spec.files)) + "," + fields.dropFirst()
    }

    /// A value as the journal stores it: its `Codable` form.
    ///
    /// - Parameter value: The value.
    /// - Returns: Its JSON text.
    /// - Throws: What `JSONEncoder` throws.
    func text(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A JSON column's value read back.
    ///
    /// - Parameters:
    ///   - type: The value's type.
    ///   - data: The column's text.
    /// - Returns: The value.
    /// - Throws: `DecodingError` when the text does not decode.
    static func value<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try decoder.decode(type, from: data)
    }
}
