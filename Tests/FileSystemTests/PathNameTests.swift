import FileSystem
import Testing

@Suite("Path names: last component, parent, joining")
struct PathNameTests {
    @Test("the last component of a path", arguments: [
        ("/a/b/c.txt", "c.txt"), ("c.txt", "c.txt"), ("/a/b/", "b"), ("a//b///", "b"), ("/", "/"), ("///", "/"),
        ("", ""), ("/caf\u{EFE9}/ünï.txt", "ünï.txt"), ("rel/dir/x", "x"),
    ])
    func lastComponent(path: String, expected: String) {
        #expect(PathName.lastComponent(of: path) == expected)
    }

    @Test("the folder of a path, as NSString's deletingLastPathComponent gives it", arguments: [
        ("/a/b/c.txt", "/a/b"), ("/a/b/", "/a"), ("/a//b", "/a"), ("/c.txt", "/"), ("//c", "/"), ("c.txt", ""),
        ("/", "/"), ("", ""), ("rel/x", "rel"), ("/é/ü.txt", "/é"),
    ])
    func parent(path: String, expected: String) {
        #expect(PathName.parent(of: path) == expected)
    }

    @Test("a component joined to a folder with one slash", arguments: [
        ("/a", "b", "/a/b"), ("/a/", "b", "/a/b"), ("", "b", "b"), ("/", "b", "/b"), ("/a", "b/c.db", "/a/b/c.db"),
    ])
    func joined(folder: String, component: String, expected: String) {
        #expect(PathName.joined(folder, component) == expected)
    }
}
