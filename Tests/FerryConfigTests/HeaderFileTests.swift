import FerryConfig
import Multipart
import TestSupport
import Testing

/// Header files (`-H @FILE`) as curl reads them.
@Suite("Header files")
struct HeaderFileTests {
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
