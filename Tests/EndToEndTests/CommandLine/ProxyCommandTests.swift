import Foundation
import TestSupport
import Testing

/// `ferry send` (the built binary) through Debian's tinyproxy, chosen with `--proxy` and with
/// the environment as curl reads it (`https_proxy`, `http_proxy`, `all_proxy`, `no_proxy`);
/// tinyproxy's own log shows each request (`CONNECT 127.0.0.1:PORT` for https).
@Suite("ferry send through a proxy (tinyproxy)", .serialized, .timeLimit(.minutes(3)))
struct ProxyCommandTests {
    /// Every proxy variable curl reads, emptied (empty counts as unset), so the test's own
    /// environment cannot choose a proxy.
    private static let noProxyVariables = [
        "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
    ].reduce(into: [String: String]()) { $0[$1] = "" }

    /// Runs `ferry send --json ARGUMENTS FILE` with `environment` and returns it once it exited.
    private func send(_ arguments: [String], environment: [String: String] = [:]) async throws -> (FerryProcess, Int32) {
        let dir = TemporaryDirectory()
        let file = dir.file("report.txt", bytes: 1_000)
        let process = try FerryProcess(["send", "--json", "--retry", "0"] + arguments + [file], stateHome: dir.path("state"),
                                       environment: Self.noProxyVariables.merging(environment) { _, given in given })
        let status = try await process.exitStatus()
        return (process, status)
    }

    private func succeeded(_ process: FerryProcess) -> Bool {
        process.jsonEvents.contains { $0["event"] as? String == "succeeded" }
    }

    private func failure(_ process: FerryProcess) -> String? {
        process.jsonEvents.first { $0["event"] as? String == "failed" }?["error"] as? String
    }

    @Test("--proxy: https goes through CONNECT; the proxy's log shows it, the server got the file once")
    func proxyOption() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port])
        let (process, status) = try await send(["--cacert", certificates.authority, "--proxy", proxy.url(), "--url", "https://127.0.0.1:\(nginx.port)/upload"])
        #expect(status == 0, "\(process.outputLines) \(process.errorText)")
        #expect(succeeded(process))
        #expect(proxy.requests == ["CONNECT 127.0.0.1:\(nginx.port) HTTP/1.1"])
        #expect(nginx.accessLog.filter { $0.hasPrefix("POST /upload 200") }.count == 1)
    }

    @Test("https_proxy, HTTPS_PROXY and all_proxy choose the proxy for https", arguments: ["https_proxy", "HTTPS_PROXY", "all_proxy"])
    func httpsProxyVariables(variable: String) async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port])
        let (process, status) = try await send(["--cacert", certificates.authority, "--url", "https://127.0.0.1:\(nginx.port)/upload"],
                                               environment: [variable: proxy.url()])
        #expect(status == 0, "\(process.outputLines) \(process.errorText)")
        #expect(proxy.requests == ["CONNECT 127.0.0.1:\(nginx.port) HTTP/1.1"])
        #expect(nginx.accessLog.filter { $0.hasPrefix("POST /upload 200") }.count == 1)
    }

    @Test("http_proxy forwards plain http to ferry serve; the proxy's log shows the absolute-form request")
    func httpProxyVariable() async throws {
        let receiver = try await SpawnedReceiver.start()
        defer { receiver.terminate() }
        let proxy = try Tinyproxy()
        let url = receiver.baseURL + "/upload"
        let (process, status) = try await send(["--url", url], environment: ["http_proxy": proxy.url()])
        #expect(status == 0, "\(process.outputLines) \(process.errorText)")
        #expect(proxy.requests == ["POST \(url) HTTP/1.1"])
        #expect(try receiver.savedNames().count == 1)
    }

    @Test("no_proxy (and --noproxy) bypass the proxy: its log shows nothing, the upload succeeds")
    func noProxyBypass() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port])
        let url = "https://127.0.0.1:\(nginx.port)/upload"
        let (viaVariable, variableStatus) = try await send(["--cacert", certificates.authority, "--url", url],
                                                           environment: ["https_proxy": proxy.url(), "no_proxy": "localhost,127.0.0.1"])
        #expect(variableStatus == 0, "\(viaVariable.outputLines)")
        let (viaOption, optionStatus) = try await send(["--cacert", certificates.authority, "--proxy", proxy.url(), "--noproxy", "*", "--url", url])
        #expect(optionStatus == 0, "\(viaOption.outputLines)")
        #expect(proxy.requests.isEmpty)
        #expect(nginx.accessLog.filter { $0.hasPrefix("POST /upload 200") }.count == 2)
        let (otherHosts, otherStatus) = try await send(["--cacert", certificates.authority, "--url", url],
                                                       environment: ["https_proxy": proxy.url(), "no_proxy": "example.com"])
        #expect(otherStatus == 0, "\(otherHosts.outputLines)")
        #expect(proxy.requests == ["CONNECT 127.0.0.1:\(nginx.port) HTTP/1.1"])
    }

    @Test("407 without credentials, and with wrong ones, in words; the right ones pass")
    func credentials() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port], credentials: ("ferry", "s3cret"))
        let url = "https://127.0.0.1:\(nginx.port)/upload"
        let (without, withoutStatus) = try await send(["--cacert", certificates.authority, "--proxy", proxy.url(), "--url", url])
        #expect(withoutStatus != 0)
        #expect(failure(without) == "the proxy at 127.0.0.1:\(proxy.port) wants credentials (407): "
            + "give them in --proxy http://user:password@127.0.0.1:\(proxy.port)")
        let (wrong, wrongStatus) = try await send(["--cacert", certificates.authority, "--proxy", proxy.url(credentials: ("ferry", "nope")), "--url", url])
        #expect(wrongStatus != 0)
        let wrongText = try #require(failure(wrong))
        #expect(wrongText.hasPrefix("the proxy at 127.0.0.1:\(proxy.port) refused the credentials (401)"))
        #expect(!wrongText.contains("nope"))
        let (right, rightStatus) = try await send(["--cacert", certificates.authority, "--proxy", proxy.url(credentials: ("ferry", "s3cret")), "--url", url])
        #expect(rightStatus == 0, "\(right.outputLines)")
        #expect(nginx.accessLog.filter { $0.hasPrefix("POST /upload 200") }.count == 1)
    }

    @Test("a proxy that is down, and a socks proxy, fail in words naming the proxy")
    func unusableProxies() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let (down, downStatus) = try await send(["--proxy", "http://127.0.0.1:\(port)", "--url", "https://127.0.0.1:9/upload"])
        #expect(downStatus != 0)
        #expect(failure(down) == "could not connect to the proxy 127.0.0.1:\(port): connection refused")
        // --proxy is checked before anything is queued: a usage error.
        let (socks, socksStatus) = try await send(["--proxy", "socks5://user:secret@127.0.0.1:\(port)",
                                                   "--url", "https://127.0.0.1:9/upload"])
        #expect(socksStatus == 2)
        #expect(socks.errorText.contains("socks5://127.0.0.1:\(port)") && socks.errorText.contains("--proxy"), "\(socks.errorText)")
        #expect(!socks.errorText.contains("secret"))
        // From the environment, it fails the jobs it applies to.
        let (viaVariable, variableStatus) = try await send(["--url", "https://127.0.0.1:9/upload"],
                                                           environment: ["https_proxy": "socks5://user:secret@127.0.0.1:\(port)"])
        #expect(variableStatus == 1)
        let text = try #require(failure(viaVariable))
        #expect(text.contains("socks5://127.0.0.1:\(port)") && text.contains("--proxy") && !text.contains("secret"))
    }
}
