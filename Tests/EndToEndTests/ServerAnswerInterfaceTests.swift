import Foundation
import TestSupport
import Testing

/// The interface (`ferry` in tmux) showing what a server answered: a JSON answer's link on the
/// job's row, the answer indented in its details; `--form-string` values sent as they are.
@Suite("The server's answer in the interface", .serialized, .timeLimit(.minutes(2)))
struct ServerAnswerInterfaceTests {
    /// A server (Python's `http.server`, werkzeug's form parser) that answers each upload with
    /// `{"url": "http://files.example/FILENAME", "note": NOTE}`; it writes its port to the file
    /// its first argument names and stops by itself after a minute if the test does not stop it.
    static let server = """
    import io, json, sys, time
    from http.server import BaseHTTPRequestHandler, HTTPServer
    from werkzeug.formparser import parse_form_data
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def do_POST(self):
            length = int(self.headers["Content-Length"])
            environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": self.headers["Content-Type"],
                       "CONTENT_LENGTH": str(length), "wsgi.input": io.BytesIO(self.rfile.read(length))}
            _, form, files = parse_form_data(environ)
            answer = json.dumps({"url": "http://files.example/" + files["file"].filename, "note": form.get("note")}).encode()
            self.send_response(201)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
        def log_message(self, *args):
            pass
    server = HTTPServer(("127.0.0.1", 0), Handler)
    server.timeout = 1
    with open(sys.argv[1], "w") as f:
        f.write(str(server.server_address[1]))
    deadline = time.time() + 60
    while time.time() < deadline:
        server.handle_request()
    """

    @Test("a JSON answer's link shows on the row; its details show the answer indented; a --form-string value goes as it is")
    func linkOnTheRow() async throws {
        let binary = try FerryBinary.requirePath()
        let tmux = try TmuxSession(width: 110, height: 30)
        defer { tmux.kill() }
        let scratch = tmux.scratch.path
        try Data(Self.server.utf8).write(to: URL(fileURLWithPath: scratch + "/server.py"))
        try FileManager.default.createDirectory(atPath: scratch + "/files", withIntermediateDirectories: true)
        try TestFile.write(Array("a picture".utf8), to: scratch + "/files/pic.txt")
        Unprivileged.handOver(foldersIn: [scratch])
        // The server runs as the test does (its Python has werkzeug), ferry as an ordinary user.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", scratch + "/server.py", scratch + "/port.txt"]
        server.standardInput = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        var port = ""
        for _ in 0..<100 where port.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            port = (try? String(contentsOfFile: scratch + "/port.txt", encoding: .utf8)) ?? ""
        }
        try tmux.run("'\(binary)' --url http://127.0.0.1:\(port)/up --form-string 'note=@not-a-file' files; echo FERRY-\"\"EXITED")
        try await tmux.waitFor("the browser") { $0.contains("pic.txt") }
        try tmux.send("Space")
        try await tmux.waitFor("one selected") { $0.contains("sel 1") }
        try tmux.send("u", literally: true)
        try await tmux.waitFor("the link on the row") { $0.contains("→ http://files.example/pic.txt") }
        try tmux.send("3", literally: true)
        try tmux.send("Enter")
        let details = try await tmux.waitFor("the details") { $0.contains(#""note": "@not-a-file""#) }
        #expect(details.contains("Link: http://files.example/pic.txt"), "\(details)")
        #expect(details.contains(#""url": "http://files.example/pic.txt","#), "\(details)")
        try tmux.send("Escape")
        try tmux.send("q", literally: true)
        try await tmux.waitFor("ferry to exit") { $0.contains("FERRY-EXITED") }
    }
}
