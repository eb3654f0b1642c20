import Foundation
import Multipart
import Testing
import UploadModel
import UploadProtocols

/// S3's XML errors, read.
@Suite("S3 errors")
struct S3ErrorDocumentTests {
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
