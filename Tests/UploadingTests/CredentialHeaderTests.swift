import Multipart
import TestSupport
import Testing
import Uploading

/// The credential headers without a network: `-u` and `--oauth2-bearer` as `Authorization`,
/// and header files (`-H @FILE`) as curl reads them.
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

    @Test("a header file: one header a line, CRLF or LF, blank lines and # comments skipped")
    func headerFile() throws {
        let text = "# secrets for the upload\r\n\r\nAuthorization: Bearer abc\r\n   \nX-Trace:  7  \n#X-Off: 1\nX-Empty:\n"
        #expect(try HeaderFile.parse(text, path: "h.txt") == [
            HeaderField(name: "Authorization", value: "Bearer abc"),
            HeaderField(name: "X-Trace", value: "7"),
            HeaderField(name: "X-Empty", value: ""),
        ])
        #expect(try HeaderFile.parse("", path: "h.txt").isEmpty)
    }

    @Test("a line that is not Name: value names the file and the line, not its content")
    func malformedLine() {
        #expect(throws: HeaderFileError.malformedLine(path: "h.txt", line: 3)) {
            try HeaderFile.parse("# c\nX-A: 1\nBearer s3cret\n", path: "h.txt")
        }
        #expect(HeaderFileError.malformedLine(path: "h.txt", line: 3).description
                == "-H @h.txt: line 3 is not 'Name: value' (blank lines and lines starting with # are skipped)")
    }

    @Test("a file that cannot be read says why")
    func unreadable() throws {
        let directory = TemporaryDirectory()
        #expect(throws: HeaderFileError.unreadable(path: directory.path("none"), message: "no such file or directory")) {
            try HeaderFile.read(directory.path("none"))
        }
        #expect(throws: HeaderFileError.unreadable(path: directory.path, message: "is a directory")) {
            try HeaderFile.read(directory.path)
        }
        let path = try directory.write("h.txt", Array("X-A: 1\n".utf8))
        #expect(try HeaderFile.read(path) == [HeaderField(name: "X-A", value: "1")])
    }
}
