import Foundation
import Multipart
import Testing
import Uploading

/// Reading presigned POST documents and S3's XML errors.
@Suite("presigned POST documents, S3 errors")
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

    @Test("S3's XML error reads as its code and message; the failure says it in words")
    func s3Error() throws {
        let body = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message>\
        <ProposedSize>2000</ProposedSize><MaxSizeAllowed>1000</MaxSizeAllowed><RequestId>X</RequestId></Error>
        """.utf8)
        let document = try #require(S3ErrorDocument(body: body))
        #expect(document.description == "S3 refused the upload: EntityTooLarge — Your proposed upload exceeds the maximum allowed size")
        let error = RedirectPolicy.error(for: UploadResponse(status: 400, body: body), jobURL: "http://h/", followsRedirects: false, retryAfter: nil)
        #expect(error.description == "the server answered 400: S3 refused the upload: EntityTooLarge — Your proposed upload exceeds "
            + "the maximum allowed size; check the URL, headers and fields, then retry")
        #expect(!error.isRetryable)
        let escaped = S3ErrorDocument(body: Array("<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy Condition failed: [&quot;starts-with&quot;, &quot;$key&quot;, &quot;uploads/&quot;] &#233;</Message></Error>".utf8))
        #expect(escaped?.message == #"Invalid according to Policy: Policy Condition failed: ["starts-with", "$key", "uploads/"] é"#)
        #expect(S3ErrorDocument(body: Array("<html>Not Found</html>".utf8)) == nil)
        #expect(S3ErrorDocument(body: Array("<Error><Message>m</Message></Error>".utf8)) == nil)
    }
}
