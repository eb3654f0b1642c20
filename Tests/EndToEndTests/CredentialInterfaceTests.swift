import Foundation
import TestSupport
import Testing

/// The interface (`ferry` in tmux) given credentials on its command line, and asked for new
/// ones when the server refuses them.
@Suite("Credentials in the interface", .serialized, .timeLimit(.minutes(2)))
struct CredentialInterfaceTests {
    @Test("-u alone wins over the saved form, as -H does: the form shows Authorization, masked")
    func userOptionWinsOverTheSavedForm() async throws {
        let binary = try FerryBinary.requirePath()
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.kill() }
        let folder = tmux.scratch.path
        // A first run saves its form (with this URL) when it quits.
        try tmux.run("'\(binary)' --url http://127.0.0.1:9/saved '\(folder)'; echo FIRST-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("1 Files") }
        try tmux.send("q", literally: true)
        try await tmux.waitFor("the first run to exit") { $0.contains("FIRST-EXITED") }
        try tmux.run("'\(binary)' -u alice:s3cret '\(folder)'; echo SECOND-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("1 Files") }
        try tmux.send("2", literally: true)
        let form = try await tmux.waitFor("the form") { $0.contains("+ header") }
        #expect(form.contains("Authorization: ••••"), "\(form)")
        #expect(!form.contains("s3cret"))
        #expect(!form.contains("127.0.0.1:9/saved"), "the command line's settings replace the saved form")
        try tmux.send("q", literally: true)
        try await tmux.waitFor("the second run to exit") { $0.contains("SECOND-EXITED") }
    }

    @Test("a 401 holds the endpoint's uploads and asks for the header, masked; the new value sends them all")
    func refusedCredentialsAreAskedFor() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start(["--token", "right-token"])
        let tmux = try TmuxSession(width: 120, height: 30)
        defer { tmux.kill(); receiver.terminate() }
        let folder = tmux.scratch.path + "/files"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["a.txt", "b.txt", "c.txt"] { try TestFile.write(Array("content of \(name)".utf8), to: folder + "/" + name) }
        try tmux.run("'\(binary)' --url '\(receiver.baseURL)/upload' -H 'Authorization: Bearer wrong-token' '\(folder)'; "
                     + "echo FERRY-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("c.txt") }
        try tmux.send("Space", "Space", "Space")
        try await tmux.waitFor("three selected") { $0.contains("sel 3") }
        try tmux.send("u", literally: true)
        let asked = try await tmux.waitFor("the question") { $0.contains("needs credentials (401)") && $0.contains("Enter save") }
        #expect(asked.contains("Authorization:"), "the header's editor is open: \(asked)")
        #expect(!asked.contains(" done "), "nothing was accepted: \(asked)")
        try tmux.send("Bearer right-token", literally: true)
        let typed = try await tmux.waitFor("the typed value, masked") { $0.contains("Authorization:" + String(repeating: "•", count: 19)) }
        #expect(!typed.contains("right-token"), "\(typed)")
        try tmux.send("Enter")
        try await tmux.waitFor("three done") { $0.contains("done 3 failed 0") }
        try tmux.send("3", literally: true)
        let done = try await tmux.waitFor("three done rows") { screen in
            screen.components(separatedBy: "\n").filter { $0.hasPrefix("✓") && $0.contains(" done ") }.count == 3
        }
        #expect(!done.contains("needs credentials"), "\(done)")
        #expect(receiver.savedContents().count == 3)
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
    }

    @Test("nginx's auth_basic: a password changed mid-queue holds the rest; the new header sends them all")
    func passwordChangedMidQueue() async throws {
        let binary = try FerryBinary.requirePath()
        let receiver = try await SpawnedReceiver.start()
        let prefix = TemporaryDirectory()
        try Self.writeUsers(("alice", "old-pass"), to: prefix.path("users"))
        let nginx = try NginxServer(directory: prefix, server: """
            location /upload {
                auth_basic "ferry";
                auth_basic_user_file PREFIX/users;
                proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                proxy_pass \(receiver.baseURL);
            }
            """)
        let tmux = try TmuxSession(width: 120, height: 30)
        defer { tmux.kill(); nginx.stop(); receiver.terminate() }
        let folder = tmux.scratch.path + "/files"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["a.txt", "b.txt", "c.txt"] { try TestFile.write(Array("content of \(name)".utf8), to: folder + "/" + name) }
        let old = "Basic " + Data("alice:old-pass".utf8).base64EncodedString()
        try tmux.run("'\(binary)' --url 'http://127.0.0.1:\(nginx.port)/upload' -H 'Authorization: \(old)' '\(folder)'; "
                     + "echo FERRY-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("c.txt") }
        try tmux.send("Space")
        try tmux.send("u", literally: true)
        try await tmux.waitFor("the first upload done") { $0.contains("done 1") }
        // The password changes: nginx reads its user file on each request.
        try Self.writeUsers(("alice", "new-pass"), to: prefix.path("users"))
        try tmux.send("1", literally: true)
        try tmux.send("Space", "Space")
        try await tmux.waitFor("two selected") { $0.contains("sel 2") }
        try tmux.send("u", literally: true)
        let asked = try await tmux.waitFor("the question") { $0.contains("needs credentials (401)") && $0.contains("Enter save") }
        #expect(asked.contains("Authorization:"), "the header's editor is open: \(asked)")
        let new = "Basic " + Data("alice:new-pass".utf8).base64EncodedString()
        try tmux.send(new, literally: true)
        let typed = try await tmux.waitFor("the typed value, masked") { $0.contains("Authorization:" + String(repeating: "•", count: new.count + 1)) }
        #expect(!typed.contains(new), "\(typed)")
        try tmux.send("Enter")
        try await tmux.waitFor("three done") { $0.contains("done 3 failed 0") }
        let statuses = nginx.accessLog.compactMap { $0.split(separator: " ").dropFirst(2).first }
        #expect(statuses.filter { $0 == "200" }.count == 3, "\(nginx.accessLog)")
        #expect(statuses.contains("401"), "\(nginx.accessLog)")
        #expect(receiver.savedContents().count == 3)
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
    }

    /// Writes an nginx user file of one user, the password hashed by `openssl passwd -apr1`.
    private static func writeUsers(_ user: (name: String, password: String), to path: String) throws {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["passwd", "-apr1", user.password]
        process.standardOutput = pipe
        try process.run()
        let hash = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try (user.name + ":" + hash).write(toFile: path, atomically: true, encoding: .utf8)
    }
}
