import Foundation
import Glibc
import NIOCore
import NIOPosix
import Testing
@testable import HTTPUploadTransport

/// A connection to this machine does not pace under BBR: its congestion control becomes CUBIC
/// (else Reno); others, and connections under a control that does not pace, keep theirs.
@Suite("The congestion control of a connection to this machine")
struct LoopbackCongestionControlTests {
    @Test("only a loopback connection under BBR is switched, to CUBIC first and Reno after")
    func replacements() {
        #expect(LoopbackCongestionControl.replacements(current: "bbr", peerIsLoopback: true) == ["cubic", "reno"])
        #expect(LoopbackCongestionControl.replacements(current: "bbr3", peerIsLoopback: true) == ["cubic", "reno"])
        #expect(LoopbackCongestionControl.replacements(current: "bbr", peerIsLoopback: false).isEmpty)
        #expect(LoopbackCongestionControl.replacements(current: "cubic", peerIsLoopback: true).isEmpty)
        #expect(LoopbackCongestionControl.replacements(current: "reno", peerIsLoopback: true).isEmpty)
    }

    @Test("127.0.0.0/8, ::1 and ::ffff:127.x are loopback; other addresses are not")
    func loopbackAddresses() throws {
        for loopback in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"] {
            #expect(LoopbackCongestionControl.isLoopback(try SocketAddress(ipAddress: loopback, port: 80)), "\(loopback)")
        }
        for other in ["192.0.2.2", "10.0.0.1", "128.0.0.1", "::", "::2", "fd00::1", "::ffff:10.0.0.1", "0.0.0.0"] {
            #expect(!LoopbackCongestionControl.isLoopback(try SocketAddress(ipAddress: other, port: 80)), "\(other)")
        }
    }

    /// The control of a connection to a listener on 127.0.0.1, set to `before` first, after
    /// `apply`; nil when this kernel does not let this user choose `before`.
    private func controlAfterApplying(from before: String) async throws -> String? {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        let client = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port).get()
        let result: Result<String?, any Error>
        do {
            result = .success(try await control(of: client, from: before))
        } catch {
            result = .failure(error)
        }
        try await client.close()
        try await server.close()
        try await group.shutdownGracefully()
        return try result.get()
    }

    private func control(of client: any Channel, from before: String) async throws -> String? {
        let socket = try #require(client as? any SocketOptionProvider)
        let level = LoopbackCongestionControl.level, name = LoopbackCongestionControl.name
        do {
            try await socket.unsafeSetSocketOption(level: level, name: name, value: LoopbackCongestionControl.AlgorithmName(before)).get()
        } catch {
            return nil
        }
        try await client.eventLoop.submit { LoopbackCongestionControl.apply(to: client) }.get()
        // Options are set on the event loop in order: this read comes after apply's.
        let after: LoopbackCongestionControl.AlgorithmName = try await socket.unsafeGetSocketOption(level: level, name: name).get()
        return after.string
    }

    @Test("a connection to 127.0.0.1 under BBR leaves it for CUBIC or Reno; one under Reno keeps it")
    func appliedToARealConnection() async throws {
        // This kernel lists its controls; CI's, like this project's machines, has BBR built in.
        let available = (try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_allowed_congestion_control", encoding: .utf8)) ?? ""
        if available.split(separator: " ").contains(where: { $0.hasPrefix("bbr") }) {
            let switched = try #require(try await controlAfterApplying(from: "bbr"), "bbr is allowed: \(available)")
            #expect(switched == "cubic" || switched == "reno", "\(switched)")
        }
        #expect(try await controlAfterApplying(from: "reno") == "reno")
    }
}
