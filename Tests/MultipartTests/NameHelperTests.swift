import Testing
@testable import Multipart

@Suite("Path and header-name helpers")
struct NameHelperTests {
    @Test("the last component of a path", arguments: [
        ("/a/b/c.txt", "c.txt"), ("c.txt", "c.txt"), ("/a/b/", "b"), ("a//b///", "b"), ("/", "/"), ("///", "/"),
        ("", ""), ("/caf\u{EFE9}/ünï.txt", "ünï.txt"), ("rel/dir/x", "x"),
    ])
    func lastComponent(path: String, expected: String) {
        #expect(PathName.lastComponent(of: path) == expected)
    }

    @Test("header names compare without regard to ASCII case, and only so")
    func namesEqual() {
        #expect(HTTPToken.namesEqual("Retry-After", "retry-after"))
        #expect(HTTPToken.namesEqual("HOST", "host"))
        #expect(HTTPToken.namesEqual("", ""))
        #expect(!HTTPToken.namesEqual("Host", "Hosts"))
        #expect(!HTTPToken.namesEqual("Retry-After", "Retry_After"))
        // Only A-Z fold: "@" (0x40) and "`" (0x60) differ by the same bit but are not letters.
        #expect(!HTTPToken.namesEqual("@", "`"))
        #expect(!HTTPToken.namesEqual("É", "é"))
    }
}
