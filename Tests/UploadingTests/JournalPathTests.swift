import Testing
@testable import Uploading

/// `JournalPath` splits and joins paths as `NSString` did.
@Suite("Journal paths")
struct JournalPathTests {
    @Test("directory, name and appending agree with NSString's path methods", arguments: [
        ("/a/b/c", "/a/b", "c"), ("/a", "/", "a"), ("c", "", "c"), ("/a/b/", "/a", "b"), ("/", "/", "/"), ("a/b", "a", "b"),
    ])
    func splits(path: String, directory: String, name: String) {
        #expect(JournalPath.directory(of: path) == directory)
        #expect(JournalPath.name(of: path) == name)
    }

    @Test("appending puts one slash between, and nothing before a relative path's start")
    func appends() {
        #expect(JournalPath.appending("ferry/journal.sqlite", to: "/var/st") == "/var/st/ferry/journal.sqlite")
        #expect(JournalPath.appending("x", to: "/var/st/") == "/var/st/x")
        #expect(JournalPath.appending("x", to: "/") == "/x")
        #expect(JournalPath.appending("x", to: "") == "x")
        #expect(JournalPath.appending("x", to: "rel") == "rel/x")
    }
}
