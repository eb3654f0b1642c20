import Multipart
import JSON
import UploadModel

/// A presigned POST: the `{"url": …, "fields": {…}}` that boto3's `generate_presigned_post`
/// and the AWS SDKs make for S3 and stores like it. The fields go out verbatim as text parts, in
/// the order the JSON lists them, before the file (which S3 wants last, under `file`); the
/// signature is in the fields, so the request carries no `Authorization` header.
public struct PresignedPost: Sendable, Hashable {
    /// The field name S3 takes the file from.
    public static let fileField = "file"

    /// Where the form is posted.
    public var url: String
    /// The policy's fields (key, policy, signature, …), in the document's order.
    public var fields: [FormTextField]

    /// Creates a presigned POST.
    ///
    /// - Parameters:
    ///   - url: Where the form is posted.
    ///   - fields: The fields, in order.
    public init(url: String, fields: [FormTextField]) {
        self.url = url
        self.fields = fields
    }

    /// Reads a presigned POST document.
    ///
    /// - Parameter document: The JSON text: an object with a `url` string and a `fields` object
    ///   whose values are strings (numbers are taken as written).
    /// - Returns: The presigned POST.
    /// - Throws: ``PresignedPostError`` saying what is missing or wrong.
    public static func read(_ document: some Sequence<UInt8>) throws(PresignedPostError) -> PresignedPost {
        let value: JSONValue
        do {
            value = try JSONReader.read(document)
        } catch {
            throw .notJSON(error.description)
        }
        guard case .object = value else { throw .notAnObject }
        guard let url = value["url"]?.stringValue, !url.isEmpty else { throw .missingURL }
        guard case let .object(members)? = value["fields"] else { throw .missingFields }
        let fields = try members.map { member throws(PresignedPostError) -> FormTextField in
            switch member.value {
            case let .string(text), let .number(text): return FormTextField(name: member.key, value: text)
            default: throw .fieldNotText(member.key)
            }
        }
        guard !fields.isEmpty, !fields.contains(where: { $0.name.isEmpty }) else { throw .missingFields }
        return PresignedPost(url: url, fields: fields)
    }
}
