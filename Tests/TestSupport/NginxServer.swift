import Foundation
import Glibc

/// nginx (Debian's `nginx-light`; no one here wrote it) started by a test on a free port of
/// 127.0.0.1, in a temporary prefix of its own, with the `server` block the test gives. Its
/// access log records each request's method, URI, status and the headers the test asks about,
/// or what the test's own log format says.
public final class NginxServer {
    /// Where `nginx` is, if it is installed.
    public static let executable: String? = ["/usr/sbin/nginx", "/usr/bin/nginx"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The port nginx listens on.
    public let port: Int
    /// The prefix directory: configuration, logs, and whatever the test puts there.
    public let directory: TemporaryDirectory
    private let process: Process

    /// Starts nginx and waits until it accepts connections.
    ///
    /// - Parameters:
    ///   - directory: The prefix (certificates the test made may already be in it); a new one
    ///     when nil.
    ///   - server: The inside of the `server { }` block, after `listen 127.0.0.1:PORT`; `PORT`
    ///     and `PREFIX` in it are replaced by the port and the prefix's path. Write `ssl` in
    ///     `listenParameters` for TLS.
    ///   - listenParameters: Words after the address on the `listen` line (`ssl`).
    ///   - http: Lines for the `http { }` block, outside the server.
    ///   - logFormat: The access log's format (nginx variables); nil for the one `accessLog`
    ///     describes.
    public init(directory: TemporaryDirectory? = nil, listenParameters: String = "", http: String = "",
         logFormat: String? = nil, server: String) throws {
        guard let nginx = Self.executable else { throw TestFailure("nginx is not installed (Debian: nginx-light)") }
        let directory = directory ?? TemporaryDirectory()
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory.path("logs"), withIntermediateDirectories: true)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try FreePort.find()
            let fill = { (text: String) in
                text.replacingOccurrences(of: "PORT", with: "\(port)").replacingOccurrences(of: "PREFIX", with: directory.path)
            }
            let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(directory.path("nginx.pid"));
            error_log \(directory.path("logs/error.log")) info;
            events { worker_connections 512; }
            http {
                log_format ferry '\(logFormat ?? "$request_method $request_uri $status $content_length \"$http_authorization\" \"$http_x_ferry\"")';
                access_log \(directory.path("logs/access.log")) ferry;
                client_body_temp_path \(directory.path("body"));
                proxy_temp_path \(directory.path("proxy"));
                fastcgi_temp_path \(directory.path("fastcgi"));
                uwsgi_temp_path \(directory.path("uwsgi"));
                scgi_temp_path \(directory.path("scgi"));
                client_max_body_size 0;
                \(fill(http))
                server {
                    listen 127.0.0.1:\(port) \(listenParameters);
                    \(fill(server))
                }
            }
            """
            let path = directory.path("nginx.conf")
            try configuration.write(toFile: path, atomically: true, encoding: .utf8)
            if let process = try ServerLaunch.start(
                nginx, arguments: ["-p", directory.path, "-c", path, "-e", directory.path("logs/error.log")], port: port) {
                self.process = process
                self.port = port
                return
            }
            let log = (try? String(contentsOfFile: directory.path("logs/error.log"), encoding: .utf8)) ?? ""
            lastError = TestFailure("nginx did not start on port \(port): \(log.suffix(400))")
        }
        throw lastError ?? TestFailure("nginx did not start")
    }

    deinit {
        stop()
    }

    /// The access log's lines: `METHOD URI STATUS CONTENT-LENGTH "AUTHORIZATION" "X-FERRY"`, or
    /// as the test's log format says.
    public var accessLog: [String] {
        let text = (try? String(contentsOfFile: directory.path("logs/access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops nginx (SIGKILL: a child of the test process inherits its blocked signals).
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
