import Multipart
import TestSupport
import Testing
import UploadModel

/// The credential headers without a network: `-u` and `--oauth2-bearer` as `Authorization`.
@Suite("Credential headers")
struct CredentialHeaderTests {
    @Test("-u user:password is Basic with the Base64 of user:password (split at the first colon)")
    func basic() {
        // Values from `printf 'uploader:s3cret' | base64` and RFC 7617's example.
        #expect(AuthorizationHeader.basic("uploader:s3cret") == HeaderField(name: "Authorization", value: "Basic dXBsb2FkZXI6czNjcmV0"))
        #expect(AuthorizationHeader.basic("Aladdin:open sesame")?.value == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(AuthorizationHeader.basic("user:pass:word")?.value == "Basic dXNlcjpwYXNzOndvcmQ=")
        #expect(AuthorizationHeader.basic("alice") == nil, "no password: Ferry does not prompt")
    }

    @Test("--oauth2-bearer TOKEN is Bearer TOKEN")
    func bearer() {
        #expect(AuthorizationHeader.bearer("mF_9.B5f-4.1JqM") == HeaderField(name: "Authorization", value: "Bearer mF_9.B5f-4.1JqM"))
    }
}
