import Foundation
import TestSupport
import Testing

/// `ferry send -r`: a folder's files go with their path from the folder's parent as filename, as
/// werkzeug (behind Python's `http.server`) parses them.
@Suite("ferry send -r (the built binary, werkzeug)", .serialized, .timeLimit(.minutes(2)))
struct FolderSendTests {
    @Test("each file's part is named by its path from the folder's parent; hidden files only with --hidden")
    func relativeFilenames() async throws {
        let dir = TemporaryDirectory()
        let folder = try PhotoFolder(in: dir)
        let single = dir.file("single.txt", bytes: 3)
        let server = try await RecordingHTTPServer.start()

        let plain = try FerryProcess(["send", "--url", server.url, "--bundle", "-r", folder.path, single], stateHome: dir.path("state"))
        #expect(try await plain.exitStatus() == 0, "\(plain.errorText)")
        let sent = try await server.request(0)
        #expect(sent.parts.compactMap(\.filename).sorted() == (PhotoFolder.visibleNames + ["single.txt"]).sorted())
        #expect(sent.parts.first { $0.filename == "photos/link.txt" }?.size == 7)
        #expect(Set(sent.parts.map(\.name)) == ["file"])

        // One request at a time: the recording server's lines, printed from its threads, could mix.
        let hidden = try FerryProcess(["send", "--url", server.url, "--concurrency", "1", "--recursive", "--hidden",
                                       folder.path + "/"],
                                      stateHome: dir.path("state"))
        #expect(try await hidden.exitStatus() == 0, "\(hidden.errorText)")
        var names: [String] = []
        for number in 1...6 { names += try await server.request(number).parts.compactMap(\.filename) }
        #expect(names.sorted() == (PhotoFolder.visibleNames + PhotoFolder.hiddenNames).sorted())
    }

    @Test("without -r a folder is refused as before; --hidden without -r is an error")
    func folderNeedsRecursive() async throws {
        let dir = TemporaryDirectory()
        let folder = try PhotoFolder(in: dir)
        let refused = try FerryProcess(["send", "--url", "http://127.0.0.1:9/", folder.path], stateHome: dir.path("state"))
        #expect(try await refused.exitStatus() == 1)
        #expect(refused.errorText.contains("directory") || refused.outputLines.joined().contains("directory"),
                "\(refused.errorText)")
        let misused = try FerryProcess(["send", "--url", "http://127.0.0.1:9/", "--hidden", folder.path], stateHome: dir.path("state"))
        #expect(try await misused.exitStatus() != 0)
        #expect(misused.errorText.contains("--hidden applies to -r only"), "\(misused.errorText)")
    }
}
