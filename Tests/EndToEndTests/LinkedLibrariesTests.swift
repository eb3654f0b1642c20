import Foundation
import TestSupport
import Testing

/// The `ferry` binary does not need full Foundation or ICU (they were a third of its memory and
/// most of its start-up: `Benchmarks/RESULTS.md`): every module of the binary imports `FoundationEssentials` at
/// most. One `import Foundation` anywhere in Sources — or in a dependency — brings them back; this
/// reads the libraries the built binary asks the loader for. The release binary is also checked
/// for what its link (`scripts/release-flags.sh`) saves at every start.
@Suite("The binary's libraries")
struct LinkedLibrariesTests {
    @Test("ferry needs neither Foundation nor ICU nor FoundationInternationalization")
    func noFullFoundation() async throws {
        let needed = try await Self.dynamicSection().filter { $0.contains("(NEEDED)") }
        try #require(needed.contains { $0.contains("[libc.so") }, "no libraries read from the binary:\n\(needed)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationNetworking.so"] {
            #expect(!needed.contains { $0.contains("[\(library)]") }, "ferry needs \(library):\n\(needed.joined(separator: "\n"))")
        }
    }

    @Test("the release binary carries the Swift runtime and libstdc++ and packs its relocations (DT_RELR)",
          .enabled(if: FerryBinary.isRelease, "the release pass of scripts/test.sh sets FERRY_BINARY_RELEASE=1"))
    func releaseLink() async throws {
        let dynamic = try await Self.dynamicSection()
        let needed = dynamic.filter { $0.contains("(NEEDED)") }
        for library in ["libswiftCore.so", "libdispatch.so", "libstdc++.so"] {
            #expect(!needed.contains { $0.contains("[\(library)") }, "the release binary needs \(library):\n\(needed.joined(separator: "\n"))")
        }
        #expect(dynamic.contains { $0.contains("(RELR)") }, "no DT_RELR: the release link did not pack relative relocations\n\(dynamic.joined(separator: "\n"))")
    }

    /// The lines of `readelf --dynamic` on the binary.
    private static func dynamicSection() async throws -> [Substring] {
        let binary = try FerryBinary.requirePath()
        let (status, output) = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {  // a runner thread is never blocked
                continuation.resume(with: Result {
                    try Spawn.run(["readelf", "--dynamic", binary], scratch: URL(fileURLWithPath: NSTemporaryDirectory()))
                })
            }
        }
        try #require(status == 0, "readelf failed: \(output)")
        return output.split(separator: "\n")
    }
}
