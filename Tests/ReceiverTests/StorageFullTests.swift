import Foundation
import Receiver
import TestSupport
import Testing

@Suite("A full disk")
struct StorageFullTests {
    @Test(
        "an upload that fills the disk is answered 507 with the reason, its partial file removed; the next small one fits",
        .enabled(if: Tmpfs.isPermitted, "mounting a 1 MiB tmpfs needs root (CAP_SYS_ADMIN); skipped"))
    func diskFull() async throws {
        let tmpfs = try Tmpfs(bytes: 1 << 20)
        defer { tmpfs.unmount() }
        try await ReceiverHarness.run(configure: { $0.directory = tmpfs.path + "/uploads" }) { harness in
            let big = try harness.directory.writeSource("big", RandomBytes.make(3 << 20, seed: 21))
            let result = try await Curl.run(["-F", Curl.fileField("f", path: big, filename: "big.bin"), harness.url + "/upload"])
            #expect(result.status == 507, "\(result.body) \(result.errorOutput)")
            let message = try ReceiverHarness.decodeError(result.body)
            #expect(message.contains("Insufficient storage") && message.contains("disk is full"), "\(message)")
            #expect(message.contains("partial file was removed"))
            #expect(try harness.directory.uploadedNames() == [])
            #expect(try harness.directory.stagedNames() == [])
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.status == 507)

            let small = try harness.directory.writeSource("small", RandomBytes.make(100_000, seed: 22))
            let fits = try await Curl.run(["-F", Curl.fileField("f", path: small, filename: "small.bin"), harness.url + "/upload"])
            #expect(fits.status == 200, "space was given back: \(fits.body)")
        }
    }

    @Test(
        "a tus PATCH that fills the disk is answered 507 and its upload removed: no .part, no .info, HEAD 404; space comes back",
        .enabled(if: Tmpfs.isPermitted, "mounting a 1 MiB tmpfs needs root (CAP_SYS_ADMIN); skipped"))
    func tusDiskFull() async throws {
        let tmpfs = try Tmpfs(bytes: 1 << 20)
        defer { tmpfs.unmount() }
        try await ReceiverHarness.run(configure: { $0.directory = tmpfs.path + "/uploads" }) { harness in
            let staging = harness.server.directory + "/.ferry-tus"
            let wire = TusWire(port: harness.server.port)
            let big = RandomBytes.make(3 << 20, seed: 23)
            let path = try await wire.create(length: big.count, metadata: TusWire.metadata([("filename", "big.bin")]))
            let first = try await wire.patch(path, offset: 0, Array(big.prefix(100_000)))
            #expect(first.status == 204, "\(first.body)")
            let reply = try await wire.patch(path, offset: 100_000, Array(big.dropFirst(100_000)))
            #expect(reply.status == 507, "\(reply.body)")
            let message = try ReceiverHarness.decodeError(reply.body)
            #expect(message.contains("Insufficient storage") && message.contains("removed for lack of space"), "\(message)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: staging) == [], "its .part and .info are gone")
            #expect(try await wire.send("HEAD", path).status == 404)
            let entry = try #require(await harness.logs.waitFor { $0.method == "PATCH" && $0.status == 507 })
            #expect(entry.error == message)

            // A creation with the whole body at once: no Location for an upload that is gone.
            let created = try await wire.send(
                "POST", "/files/", headers: [("Upload-Length", String(big.count)), ("Content-Type", "application/offset+octet-stream")],
                body: big)
            #expect(created.status == 507)
            #expect(created["Location"] == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: staging) == [])

            let small = RandomBytes.make(100_000, seed: 24)
            let again = try await wire.create(length: small.count, metadata: TusWire.metadata([("filename", "small.bin")]))
            #expect(try await wire.patch(again, offset: 0, small).status == 204, "space was given back")
            #expect(harness.server.receivedUploads.last?.files.first?.savedAs == "small.bin")
        }
    }
}
