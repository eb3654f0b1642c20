extension NginxServer {
    /// nginx with TLS for 127.0.0.1 and localhost (a certificate from an authority made for the
    /// test), answering 200 "stored" to every request.
    ///
    /// - Returns: The server and the certificates (trust `authority`).
    static func answeringOverTLS() throws -> (NginxServer, TestCertificates) {
        let certificates = try TestCertificates()
        _ = try certificates.issue("server")
        let nginx = try NginxServer(directory: certificates.directory, listenParameters: "ssl", server: """
            ssl_certificate PREFIX/server.pem;
            ssl_certificate_key PREFIX/server.key;
            location / { return 200 "stored\\n"; }
            """)
        return (nginx, certificates)
    }
}
