import FerryConfig
import Multipart
import TestSupport
import Testing
@testable import UploadModel
@testable import UploadProtocols

/// `CurlCommand`: the line `ferry send --print-curl` writes, quoted for a shell and for curl's `-F`.
@Suite("curl command lines")
struct CurlCommandTests {
    @Test("parts in order: text as --form-string, files as -F with filename and Ferry's content type; method, headers, options")
    func line() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("a;b \"c\".json", bytes: 3)
        var spec = try UploadPlanner(
            url: "https://h/up?x=1", method: "PUT", headers: [HeaderField(name: "X-A", value: "it's")],
            formArguments: [CurlFormArgument(name: "t", value: .text("@x;type=y")),
                            CurlFormArgument(name: "d", value: .file(path: file), filename: "n.bin", contentType: "image/png")],
            connection: ConnectionOptions(verifiesCertificates: false, certificateAuthorityFile: "/ca.pem", followsRedirects: true)
        ).template()
        spec = spec.replacingFiles([QueuedFile.capture(path: file)])
        let line = String(decoding: CurlCommand(spec: spec, showsSecrets: false).line, as: UTF8.self)
        let path = file.replacingOccurrences(of: "\"", with: "\\\"")
        #expect(line == "curl 'https://h/up?x=1' -X PUT -H 'X-A: it'\\''s' -k --cacert /ca.pem -L "
            + "--form-string 't=@x;type=y' -F 'd=@\"\(path)\";filename=\"n.bin\";type=image/png' "
            + "-F 'file=@\"\(path)\";filename=\"a;b \\\"c\\\".json\";type=application/json'")
    }

    @Test("secret header values and a URL's password are masked unless shown; the command says so")
    func secrets() {
        let spec = UploadJobSpec(url: "http://u:p%40ss@h:8/up", headers: [HeaderField(name: "Cookie", value: "c=1"),
                                                                          HeaderField(name: "X-Api-Key", value: "k"),
                                                                          HeaderField(name: "Accept", value: "a")], files: [])
        let hidden = CurlCommand(spec: spec, showsSecrets: false)
        #expect(hidden.hidesSecrets)
        #expect(String(decoding: hidden.line, as: UTF8.self)
            == "curl 'http://u:********@h:8/up' -H 'Cookie: ********' -H 'X-Api-Key: ********' -H 'Accept: a'")
        let shown = CurlCommand(spec: spec, showsSecrets: true)
        #expect(!shown.hidesSecrets)
        #expect(String(decoding: shown.line, as: UTF8.self) == "curl http://u:p%40ss@h:8/up -H 'Cookie: c=1' -H 'X-Api-Key: k' -H 'Accept: a'")
    }

    @Test("shell quoting: plain words as they are, the rest in single quotes; a path that is not UTF-8 as its bytes")
    func quoting() {
        #expect(CurlCommand.shellQuoted(Array("a-b_c/1.2:3@x=y,z%".utf8)) == Array("a-b_c/1.2:3@x=y,z%".utf8))
        #expect(CurlCommand.shellQuoted([]) == Array("''".utf8))
        #expect(CurlCommand.shellQuoted(Array("$HOME `x` *".utf8)) == Array("'$HOME `x` *'".utf8))
        #expect(CurlCommand.curlQuoted(Array(#"a"b\c"#.utf8)) == Array(#""a\"b\\c""#.utf8))
        let raw: [UInt8] = Array("caf".utf8) + [0xE9]
        #expect(CurlCommand.shellQuoted(raw) == [0x27] + raw + [0x27])
    }
}
