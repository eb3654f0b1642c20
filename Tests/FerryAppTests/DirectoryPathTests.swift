import FerryApp
import Testing

@Suite("Directory paths")
struct DirectoryPathTests {
    @Test func parentOfPaths() {
        #expect(DirectoryPath.parent(of: "/a/b") == ("/a", "b"))
        #expect(DirectoryPath.parent(of: "/a/") == ("/", "a"))
        #expect(DirectoryPath.parent(of: "/") == ("/", ""))
    }

    @Test func joinedPaths() {
        #expect(DirectoryPath.join("/a/b", "c.txt") == "/a/b/c.txt")
        #expect(DirectoryPath.join("/", "c.txt") == "/c.txt")
        #expect(DirectoryPath.join("/a/", "é and a longer name.txt") == "/a/é and a longer name.txt")
    }
}
