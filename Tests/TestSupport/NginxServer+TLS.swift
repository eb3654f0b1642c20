
extension NginxServer {
    /// nginx with TLS for 127.0.0.1 and localhost (a certificate from an authority made for the
    /// test), answering 200 "stored" to every request.
    ///
    /// - Returns: The server and the certificates (trust `authority`).
    package static func answeringOverTLS() throws -> (NginxServer, TestCertificates) {
        let certificates = try TestCertificates()
        _ = try certificates.issue("server")
        let nginx = try NginxServer(directory: certificates.directory, listenParameters: "ssl", server: """
            ssl_certificate PREFIX/server.pem;
            ssl_certificate_key PREFIX/server.key;
            location / { return 200 "stored\\n"; }
            """)
        return (nginx, certificates)
    }

    /// nginx with TLS on `certificate`, whose `/upload` reads each body whole before it answers
    /// (proxied to a second server block on a Unix socket, which answers 200 "stored").
    ///
    /// - Parameters:
    ///   - certificate: The server's certificate and key.
    ///   - listenParameters: `ssl`, or `ssl http2` to offer HTTP/2.
    ///   - clientAuthority: With one, a client certificate signed by it is required.
    ///   - serverLines: More lines for the server block (keep-alive limits, body limits).
    ///   - httpLines: More lines for the `http { }` block (a `limit_req_zone` the server uses).
    ///   - logFormat: The access log's format, nil for `NginxServer`'s own.
    /// - Returns: The running server.
    package static func readingUploadsOverTLS(_ certificate: (certificate: String, key: String), listenParameters: String = "ssl",
                                              clientAuthority: String? = nil, serverLines: String = "", httpLines: String = "",
                                              logFormat: String? = nil) throws -> NginxServer {
        let clientLines = clientAuthority.map { "ssl_verify_client on; ssl_client_certificate \($0);" } ?? ""
        return try NginxServer(
            listenParameters: listenParameters,
            http: "server { listen unix:PREFIX/backend.sock; access_log off; location / { return 200 \"stored\\n\"; } }\n\(httpLines)",
            logFormat: logFormat,
            server: """
            ssl_certificate \(certificate.certificate);
            ssl_certificate_key \(certificate.key);
            \(clientLines)
            \(serverLines)
            location /upload { proxy_pass http://unix:PREFIX/backend.sock; }
            """
        )
    }
}
