import Foundation
import TestSupport

/// A server (Python's `http.server`) that records each request as werkzeug parses it — method,
/// path, headers and the multipart parts in wire order (name, filename, content type, size,
/// SHA-256; `Tests/Interop/parse_multipart.py`) — and answers `201` with JSON holding links:
/// `{"url": "http://top.example/N", "data": {"url": "http://files.example/N"}}` for request N.
final class RecordingHTTPServer: Sendable {
    /// One part as werkzeug saw it.
    struct Part: Decodable, Equatable {
        var name: String
        var filename: String?
        var content_type: String?
        var size: Int
        var sha256: String
    }

    /// One request.
    struct Request: Decodable {
        var method: String
        var path: String
        var headers: [[String]]
        var parts: [Part]

        /// The values of a header, by case-insensitive name.
        func header(_ name: String) -> [String] {
            headers.filter { $0[0].lowercased() == name.lowercased() }.map { $0[1] }
        }
    }

    static let script = """
    import itertools, json, os, sys, threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    sys.path.insert(0, sys.argv[2])
    from parse_multipart import boundary_of, with_werkzeug
    counter = itertools.count()
    output = threading.Lock()
    def say(line):
        # One write per line under a lock: print's pieces from two threads could interleave.
        with output:
            sys.stdout.write(line + "\\n")
            sys.stdout.flush()
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def do_POST(self):
            number = next(counter)
            body = self.rfile.read(int(self.headers["Content-Length"]))
            parts = with_werkzeug(body, boundary_of(self.headers["Content-Type"]))
            record = {"method": self.command, "path": self.path, "headers": [[k, v] for k, v in self.headers.items()], "parts": parts}
            path = os.path.join(sys.argv[1], f"{number}.json")
            with open(path + ".part", "w") as f:
                json.dump(record, f)
            os.replace(path + ".part", path)  # a reader never sees half a record
            answer = json.dumps({"url": f"http://top.example/{number}", "data": {"url": f"http://files.example/{number}"}}).encode()
            self.send_response(201)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
            say(f"REQ {number}")
        do_PUT = do_POST
        def log_message(self, *args):
            pass
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    say(f"PORT {server.server_address[1]}")
    server.serve_forever()
    """

    private static let interop = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Interop").path

    let directory: TemporaryDirectory
    let server: PythonScriptServer

    /// The URL to upload to.
    var url: String { "http://127.0.0.1:\(server.port)/upload" }

    private init(directory: TemporaryDirectory, server: PythonScriptServer) {
        self.directory = directory
        self.server = server
    }

    /// Starts a server.
    static func start() async throws -> RecordingHTTPServer {
        let directory = TemporaryDirectory()
        return RecordingHTTPServer(directory: directory,
                                   server: try await PythonScriptServer.start(script: script, arguments: [directory.path, interop]))
    }

    /// Request `number` (from 0), once it was recorded.
    func request(_ number: Int) async throws -> Request {
        guard try await server.wait(for: "REQ \(number)") else { throw TestFailure("request \(number) never came") }
        return try JSONDecoder().decode(Request.self, from: Data(contentsOf: URL(fileURLWithPath: directory.path("\(number).json"))))
    }
}
