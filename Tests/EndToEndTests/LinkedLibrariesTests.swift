import Foundation
import TestSupport
import Testing

/// The `ferry` binary does not need full Foundation or ICU (issue 28: they were a third of its
/// memory and most of its start-up): every module of the binary imports `FoundationEssentials` at
/// most. One `import Foundation` anywhere in Sources — or in a dependency — brings them back; this
/// reads the libraries the built binary asks the loader for.
@Suite("The binary's libraries")
struct LinkedLibrariesTests {
    @Test("ferry needs neither Foundation nor ICU nor FoundationInternationalization")
    func noFullFoundation() async throws {
        let binary = try FerryBinary.requirePath()
        let (status, output) = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {  // a runner thread is never blocked
                continuation.resume(with: Result {
                    try Spawn.run(["readelf", "--dynamic", binary], scratch: URL(fileURLWithPath: NSTemporaryDirectory()))
                })
            }
        }
        try #require(status == 0, "readelf failed: \(output)")
        let needed = output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        try #require(needed.contains { $0.contains("[libc.so") }, "no libraries read from the binary:\n\(output)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationNetworking.so"] {
            #expect(!needed.contains { $0.contains("[\(library)]") }, "ferry needs \(library):\n\(needed.joined(separator: "\n"))")
        }
    }
}
