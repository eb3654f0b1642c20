import FerryConfig
import Testing
import UploadModel

/// Reading presigned POST documents.
@Suite("presigned POST documents")
struct PresignedPostTests {
    @Test("fields come out in the document's order, values verbatim; numbers are taken as written")
    func fieldsInOrder() throws {
        let post = try PresignedPost.read(Array(#"""
        {"url": "https://b.s3.amazonaws.com/", "fields": {"key": "up/${filename}", "x-amz-meta-n": "@a;type=x", "Policy": "eyJ9", "acl": 1}}
        """#.utf8))
        #expect(post.url == "https://b.s3.amazonaws.com/")
        #expect(post.fields == [FormTextField(name: "key", value: "up/${filename}"), FormTextField(name: "x-amz-meta-n", value: "@a;type=x"),
                                FormTextField(name: "Policy", value: "eyJ9"), FormTextField(name: "acl", value: "1")])
    }

    @Test("a document that cannot be used says what is wrong", arguments: [
        ("{", "not valid JSON at byte 1"), ("[]", "not a JSON object"), (#"{"fields": {"a": "b"}}"#, "no \"url\""),
        (#"{"url": "http://h/", "fields": {}}"#, "no \"fields\""), (#"{"url": "http://h/", "fields": {"a": {}}}"#, "\"a\" is not a string"),
    ] as [(String, String)])
    func refused(document: String, problem: String) {
        do {
            _ = try PresignedPost.read(Array(document.utf8))
            Issue.record("accepted \(document)")
        } catch {
            #expect(error.description.contains(problem), "\(error)")
            #expect(error.description.contains("generate_presigned_post"))
        }
    }
}
