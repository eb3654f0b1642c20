import Foundation
import HTTPUploadTransport
import Multipart
import TestSupport
import Testing
import UploadModel

/// Servers that break HTTP or TLS the ways real ones do, as short Python scripts
/// (`PythonScriptServer`), against the real manager and `HTTPTransport`: a reply that is not HTTP
/// and headers over the limit fail in words naming the host (not retried); a body that never
/// ends does not hold the job (the status decides once 64 KiB are captured, and the connection
/// is closed); a close-framed response over TLS without `close_notify` is the response; a TLS
/// server that requires a client certificate says so.
@Suite("Broken servers, in words", .serialized, .timeLimit(.minutes(2)))
struct BrokenServerTests {
    /// The servers, one mode per `sys.argv[1]`.
    static let script = #"""
import os, socket, ssl, sys, threading, time

def exit_with_parent(parent):
    # A test process that dies (killed, crashed) must not leave this server streaming.
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)

threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
mode = sys.argv[1]
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
context = None
if mode.startswith("tls"):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    if mode == "tls-cipher":
        # Only a cipher BoringSSL does not have (finite-field Diffie-Hellman), in TLS 1.2.
        context.maximum_version = ssl.TLSVersion.TLSv1_2
        context.set_ciphers("DHE-RSA-AES256-GCM-SHA384")
    if mode == "tls-client-certificate":
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(sys.argv[4])
print("PORT %d" % listener.getsockname()[1], flush=True)

def read_request(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return False
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            return False
        body += chunk
    return True

def stream(connection, head, piece):
    connection.sendall(head)
    try:
        while True:
            connection.sendall(piece)
    except OSError:
        print("closed", flush=True)

def serve(raw):
    connection = raw
    try:
        if context is not None:
            connection = context.wrap_socket(raw, server_side=True)
        if not read_request(connection):
            return
        if mode == "not-http":
            connection.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n")
            connection.recv(1)
        elif mode == "huge-headers":
            filler = b"X-Filler: " + b"a" * 1000 + b"\r\n"
            connection.sendall(b"HTTP/1.1 200 OK\r\n" + filler * 100 + b"Content-Length: 0\r\n\r\n")
            connection.recv(1)
        elif mode == "endless-chunked":
            stream(connection, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", b"1000\r\n" + b"x" * 4096 + b"\r\n")
        elif mode == "endless-close":
            stream(connection, b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", b"x" * 4096)
        elif mode == "tls-close-framed":
            connection.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nstored by a close-framed reply")
            # Close the TCP connection without TLS's close_notify (no unwrap()).
            socket.socket.shutdown(connection, socket.SHUT_RDWR)
            print("closed", flush=True)
        elif mode == "tls-client-certificate":
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    except (OSError, ssl.SSLError):
        pass
    finally:
        connection.close()

while True:
    client, _ = listener.accept()
    threading.Thread(target=serve, args=(client,), daemon=True).start()
"""#

    /// Starts the script in `mode` with `arguments` (certificate, key, client authority).
    static func server(_ mode: String, _ arguments: [String] = []) throws -> PythonScriptServer {
        try PythonScriptServer(script: script, arguments: [mode] + arguments)
    }

    @Test("a reply that is not HTTP shows how it began, names the host, and is not retried")
    func notHTTP() async throws {
        let server = try Self.server("not-http")
        let ended = try await TLSTrustTests.upload(to: "http://127.0.0.1:\(server.port)/upload", options: ConnectionOptions())
        TLSTrustTests.expectFailure(ended, saying: [
            #"the reply of 127.0.0.1 is not HTTP: it began with "SSH-2.0-OpenSSH_9.2p…""#, "check the URL's scheme and port",
        ])
    }

    @Test("response headers over the decoder's limit say so with the limit")
    func headersTooLarge() async throws {
        let server = try Self.server("huge-headers")
        let ended = try await TLSTrustTests.upload(to: "http://127.0.0.1:\(server.port)/upload", options: ConnectionOptions())
        TLSTrustTests.expectFailure(ended, saying: ["the response headers of 127.0.0.1 are larger than 80 KB"])
    }

    @Test("a body that never ends (chunked, or framed by a close that never comes): the status decides once 64 KiB are captured",
          arguments: ["endless-chunked", "endless-close"])
    func endlessBody(mode: String) async throws {
        let server = try Self.server(mode)
        let ended = try await TLSTrustTests.upload(to: "http://127.0.0.1:\(server.port)/upload", options: ConnectionOptions())
        #expect(ended.job.state == .succeeded, "\(ended.job.lastError?.description ?? "")")
        #expect(ended.job.response?.status == 200)
        #expect(ended.job.response?.isBodyTruncated == true)
        #expect(ended.job.response?.body.count == UploadResponse.maximumCapturedBodyBytes)
        #expect(ended.elapsed < .seconds(5), "\(ended.elapsed)")
        #expect(try await server.wait(for: "closed"), "the connection was closed")
        #expect(ended.census == ConnectionPoolCensus(), "\(ended.census)")
    }

    @Test("over TLS, a response framed by the connection's close without close_notify is the response")
    func closeFramedOverTLS() async throws {
        let certificates = try TestCertificates()
        let pair = try certificates.issue("server")
        let server = try Self.server("tls-close-framed", [pair.certificate, pair.key])
        let ended = try await TLSTrustTests.upload(to: "https://127.0.0.1:\(server.port)/upload",
                                                   options: ConnectionOptions(certificateAuthorityFile: certificates.authority))
        #expect(ended.job.state == .succeeded, "\(ended.job.lastError?.description ?? "")")
        #expect(ended.job.response.map { String(decoding: $0.body, as: UTF8.self) } == "stored by a close-framed reply")
        #expect(ended.job.attempts == 1)
    }

    @Test("a TLS server with no cipher in common refuses the handshake: said so, at once, not retried")
    func noCipherInCommon() async throws {
        let certificates = try TestCertificates()
        let pair = try certificates.issue("server")
        let server = try Self.server("tls-cipher", [pair.certificate, pair.key])
        let ended = try await TLSTrustTests.upload(to: "https://127.0.0.1:\(server.port)/upload",
                                                   options: ConnectionOptions(certificateAuthorityFile: certificates.authority))
        TLSTrustTests.expectFailure(ended, saying: ["127.0.0.1 refused the TLS handshake: no cipher in common"])
    }

    @Test("https:// to a server that speaks plain HTTP on that port says it does not speak TLS")
    func notTLS() async throws {
        let server = try NginxServer(server: "location / { return 200; }")
        let ended = try await TLSTrustTests.upload(to: "https://127.0.0.1:\(server.port)/upload", options: ConnectionOptions())
        TLSTrustTests.expectFailure(ended, saying: ["127.0.0.1 does not speak TLS on this port; check the URL (http:// rather than https://?)"])
    }

    @Test("a TLS server that requires a client certificate: without one, the error says to give --cert; with one, it uploads")
    func clientCertificateRequired() async throws {
        let certificates = try TestCertificates()
        let clients = try TestCertificates(name: "Ferry Client CA")
        let pair = try certificates.issue("server")
        let client = try clients.issue("client", for: ["DNS:client.example"], usage: "clientAuth")
        let server = try Self.server("tls-client-certificate", [pair.certificate, pair.key, clients.authority])
        let url = "https://127.0.0.1:\(server.port)/upload"
        let without = try await TLSTrustTests.upload(to: url, options: ConnectionOptions(certificateAuthorityFile: certificates.authority))
        TLSTrustTests.expectFailure(without, saying: ["127.0.0.1 wants a client certificate: give one with --cert FILE"])
        let with = try await TLSTrustTests.upload(to: url, options: ConnectionOptions(
            certificateAuthorityFile: certificates.authority, clientCertificateFile: client.certificate, clientKeyFile: client.key))
        #expect(with.job.state == .succeeded, "\(with.job.lastError?.description ?? "")")
    }
}
