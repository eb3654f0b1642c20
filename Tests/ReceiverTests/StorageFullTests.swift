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
}
