import Foundation
import TestSupport

/// moto's S3 in server mode (PyPI `moto[server]`, installed by `scripts/test.sh`), started on a
/// free port of 127.0.0.1, and boto3 (moto's own dependency) as the client that makes buckets,
/// presigned POSTs and reads objects back: S3's API as AWS's SDK speaks it, no one here wrote
/// either side.
///
/// moto 5 checks no POST policy condition (it stores whatever a presigned POST sends), so the
/// tests rely on it for the fields, the object and its XML errors, not for the policy.
final class MotoS3Server: Sendable {
    static let script = """
    import socket, time
    from moto.server import ThreadedMotoServer
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    print("PORT", port, flush=True)
    while True:
        time.sleep(3600)
    """

    let server: PythonScriptServer

    /// The endpoint URL boto3 is pointed at.
    var endpoint: String { "http://127.0.0.1:\(server.port)" }

    private init(server: PythonScriptServer) {
        self.server = server
    }

    /// Starts the server (moto takes a second or two to import).
    static func start() async throws -> MotoS3Server {
        MotoS3Server(server: try await PythonScriptServer.start(script: script))
    }

    /// Runs Python code with `s3`, a boto3 client of this server, and returns what it printed.
    ///
    /// - Parameter code: The code (after `import boto3, json, sys` and `s3 = …`).
    /// - Returns: Standard output.
    /// - Throws: `TestFailure` with standard error when the code fails.
    func boto(_ code: String) async throws -> Data {
        let program = """
        import boto3, json, sys
        s3 = boto3.client("s3", endpoint_url="\(endpoint)", region_name="us-east-1",
                          aws_access_key_id="testing", aws_secret_access_key="testing")

        """ + code
        let run = try await CompletedProcess.run(["/usr/bin/env", "python3", "-c", program])
        guard run.status == 0 else { throw TestFailure("boto3 failed: \(run.errors)") }
        return run.output
    }
}
