import Foundation
import TestSupport

/// tuspyserver (a FastAPI tus 1.0 server, run with uvicorn; installed by `scripts/test.sh`),
/// started on a free port of 127.0.0.1 with its uploads in a folder of its own. It offers
/// creation, creation-with-upload and termination, not checksum. Each request is printed as
/// `REQ METHOD PATH length` (its `Content-Length`), each finished upload as `COMPLETE path`.
final class TuspyServer: Sendable {
    static let script = """
    import socket, sys, uvicorn
    from fastapi import FastAPI, Request
    from tuspyserver import create_tus_router
    app = FastAPI()
    @app.middleware("http")
    async def log(request: Request, call_next):
        print("REQ", request.method, request.url.path, request.headers.get("content-length", "-"), flush=True)
        return await call_next(request)
    def done(path, metadata):
        print("COMPLETE", path, flush=True)
    app.include_router(create_tus_router(prefix="files", files_dir=sys.argv[1], on_upload_complete=done))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    print("PORT", sock.getsockname()[1], flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    """

    /// The folder its uploads go to: `ID` (the bytes) and `ID.info` (JSON: metadata, size, offset).
    let directory: TemporaryDirectory
    let server: PythonScriptServer

    /// The creation URL.
    var creationURL: String { "http://127.0.0.1:\(server.port)/files/" }

    private init(directory: TemporaryDirectory, server: PythonScriptServer) {
        self.directory = directory
        self.server = server
    }

    /// Starts a server (starting Python and FastAPI takes a second, which no runner thread waits for).
    static func start() async throws -> TuspyServer {
        let directory = TemporaryDirectory()
        return TuspyServer(directory: directory, server: try await PythonScriptServer.start(script: script, arguments: [directory.path]))
    }

    /// The bytes and metadata of the upload at `url`.
    func upload(at url: String) throws -> (bytes: Data, metadata: [String: String]) {
        let id = String(url.split(separator: "/").last ?? "")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.path(id)))
        let info = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory.path(id + ".info"))))
        let metadata = ((info as? [String: Any])?["metadata"] as? [String: String]) ?? [:]
        return (bytes, metadata)
    }
}
