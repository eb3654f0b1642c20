import Foundation
import Testing
@testable import FerryResources

@Suite("What Ferry ships: the compiled-in MIME table and where the demo's samples are")
struct BundledResourcesTests {
    @Test("the samples are looked for beside the installed binary first, then in the source tree")
    func candidates() {
        let candidates = BundledResources.samplesCandidates(
            executable: "/home/u/.local/bin/ferry", sourceFile: "/src/ferry/Resources/BundledResources.swift")
        #expect(candidates == ["/home/u/.local/share/ferry/samples", "/src/ferry/Resources/samples"])
        #expect(BundledResources.samplesCandidates(executable: nil, sourceFile: "/r/BundledResources.swift") == ["/r/samples"])
    }

    @Test("a build run from its build folder finds the source tree's samples")
    func samplesFromTheSourceTree() throws {
        let folder = try #require(BundledResources.samplesDirectory)
        #expect(folder.hasSuffix("/Resources/samples"), "\(folder)")
        #expect(FileManager.default.fileExists(atPath: folder + "/README.txt"))
    }

    @Test("the MIME table is in the binary, in mime.types format")
    func mimeTable() {
        let lines = BundledResources.mimeTypes.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("image/jpeg") && $0.contains(" jpg ") })
        #expect(lines.count > 100)
    }
}
