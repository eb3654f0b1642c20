import FileSystem
import FoundationEssentials
import Multipart

/// The `Upload-Metadata` of a tus upload, as tus 1.0.0 defines it: comma-separated pairs of a
/// key and an optional Base64 value, separated by a space (`filename d29ybGQ=,private`).
///
/// Keys must be non-empty, unique and free of spaces and commas; values are standard Base64
/// with padding and may decode to any bytes. Whitespace around a pair is ignored, and so are
/// empty pairs (a trailing comma); everything else that breaks the rules is refused, so a
/// client's bug shows as a 400 instead of a silently lost value.
struct TusMetadata: Sendable, Hashable {
    /// One key and its value (`nil` when the pair had none; an empty value is `[]`).
    struct Pair: Sendable, Hashable {
        /// The key, as sent.
        let key: String
        /// The decoded value, or `nil` when the key came alone.
        let value: [UInt8]?
    }

    /// The pairs, in the order they were sent.
    let pairs: [Pair]

    /// Parses an `Upload-Metadata` header value.
    ///
    /// - Parameter header: The header value; an empty one has no pairs.
    /// - Throws: ``ReceiverError/tusRefused(reason:)`` with ``ReceiverError/TusRefusalReason/invalidMetadata(detail:)``
    ///   for a repeated key, a pair with more than one space, or a value that is not Base64.
    init(parsing header: String) throws(ReceiverError) {
        var pairs: [Pair] = []
        var keys = Set<String>()
        for element in header.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = element.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            let parts = trimmed.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                throw .tusRefused(reason: .invalidMetadata(detail: "the pair '\(trimmed)' has more than a key and one value"))
            }
            let key = String(parts[0])  // not empty: the pair is trimmed and not empty
            guard keys.insert(key).inserted else {
                throw .tusRefused(reason: .invalidMetadata(detail: "the key '\(key)' appears twice"))
            }
            var value: [UInt8]?
            if parts.count == 2 {
                guard let decoded = Data(base64Encoded: String(parts[1])) else {
                    throw .tusRefused(reason: .invalidMetadata(detail: "the value of '\(key)' is not Base64"))
                }
                value = [UInt8](decoded)
            }
            pairs.append(Pair(key: key, value: value))
        }
        self.pairs = pairs
    }

    /// The value of `key`, if the key was sent.
    ///
    /// - Parameter key: The key, compared exactly.
    /// - Returns: The decoded bytes (`[]` for a key sent without a value), or `nil` when absent.
    func value(for key: String) -> [UInt8]? {
        pairs.first { $0.key == key }.map { $0.value ?? [] }
    }

    /// The value of `key` as text, bytes that are not UTF-8 kept losslessly (``FileSystemName``).
    ///
    /// - Parameter key: The key, compared exactly.
    /// - Returns: The text, or `nil` when the key was not sent.
    func text(for key: String) -> String? {
        value(for: key).map { FileSystemName.decode($0) }
    }

    /// The pairs as text fields for an ``UploadRecord``: key → [value], bytes that are not UTF-8
    /// written `\xNN`.
    var fields: [String: [String]] {
        var fields: [String: [String]] = [:]
        for pair in pairs {
            fields[pair.key] = [FileSystemName.escaped(FileSystemName.decode(pair.value ?? []))]
        }
        return fields
    }
}
