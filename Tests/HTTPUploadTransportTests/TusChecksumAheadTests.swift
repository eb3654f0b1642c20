import FileSystem
import Foundation
import Multipart
import Synchronization
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

/// `TusChecksumAhead` and `TusChunkChecksum`: one pass from the next chunk's start gives the
/// `Upload-Checksum` at every candidate end, each the value of that range alone; a range no
/// candidate covers is hashed when asked for.
@Suite("TusChecksumAhead", .timeLimit(.minutes(1)))
struct TusChecksumAheadTests {
    /// A temporary file of known bytes, removed with the value.
    final class File {
        static let size = 1_234_567
        let path = NSTemporaryDirectory() + "ferry-tus-checksum-\(UUID().uuidString).bin"
        let snapshot: FileSnapshot

        init() throws {
            let bytes = (0..<Self.size).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ 7) >> 13) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            snapshot = try FileInspector.inspect(path)
        }

        /// Changes the file after its snapshot (a byte more), so reading it again fails.
        func change() throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([1]))
            try handle.close()
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static let start: Int64 = 300_000
    /// Candidate ends: 256 KiB reads from the start land on the first, not on the others.
    static let ends: [Int64] = [start + 2 * 262_144, 1_000_003, Int64(File.size)]

    /// Asks `ahead` for a range's value and waits for it, at most 10 s (a value never given fails
    /// the test instead of hanging it).
    static func header(_ ahead: TusChecksumAhead, _ algorithm: TusChecksumAlgorithm, _ range: Range<Int64>) async throws -> Result<String, UploadError> {
        let given = Mutex<Result<String, UploadError>?>(nil)
        ahead.header(algorithm, range: range) { result in given.withLock { $0 = result } }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let result = given.withLock({ $0 }) { return result }
            try await Task.sleep(for: .milliseconds(5))
        }
        return try #require(given.withLock { $0 }, "no value for \(algorithm) \(range) within 10 s")
    }

    @Test("a range's value is its digest (sha1, sha256), read across 256 KiB reads")
    func knownDigests() throws {
        let file = try File()
        let range = Self.start..<1_000_003
        #expect(try TusChunkChecksum.header(.sha256, of: file.snapshot, range: range) == "sha256 wI9f5gsAoUcxc02Oqi8tD8ygzkGeW+K6DKrvl/IS0os=")
        #expect(try TusChunkChecksum.header(.sha1, of: file.snapshot, range: range) == "sha1 Pnfg+bVdT9UbjuD3YgTFwGSj3K0=")
    }

    @Test("one pass gives every candidate end, nearest first, each equal to its range hashed alone", arguments: [TusChecksumAlgorithm.sha1, .sha256])
    func onePassGivesEveryEnd(algorithm: TusChecksumAlgorithm) throws {
        let file = try File()
        var given: [(Int64, String)] = []
        try TusChunkChecksum.headers(algorithm, of: file.snapshot, from: Self.start, to: Self.ends.reversed() + [Self.ends[0]]) {
            given.append(($0, $1))
        }
        #expect(given.map(\.0) == Self.ends, "each end once, nearest first")
        for (end, value) in given {
            #expect(value == (try TusChunkChecksum.header(algorithm, of: file.snapshot, range: Self.start..<end)), "end \(end)")
        }
    }

    @Test("a pass told it is no longer wanted stops without giving the ends it did not reach")
    func unwantedPassStops() throws {
        let file = try File()
        var given: [Int64] = []
        var reads = 0
        try TusChunkChecksum.headers(.sha256, of: file.snapshot, from: Self.start, to: Self.ends, wanted: {
            reads += 1
            return reads < 3
        }) { end, _ in given.append(end) }
        #expect(given == [Self.ends[0]], "two reads reach the first end; the third stops the pass")
    }

    @Test("each candidate end prepared is hashed ahead: its value is given after the file changed", arguments: [TusChecksumAlgorithm.sha1, .sha256])
    func candidatesHashedAhead(algorithm: TusChecksumAlgorithm) async throws {
        for end in Self.ends {
            let file = try File()
            let expected = try TusChunkChecksum.header(algorithm, of: file.snapshot, range: Self.start..<end)
            let ahead = TusChecksumAhead(file: file.snapshot)
            ahead.prepare(algorithm, from: Self.start, to: Self.ends)
            try await Task.sleep(for: .seconds(1))  // the pass reads 1 MiB meanwhile
            try file.change()
            #expect(try await Self.header(ahead, algorithm, Self.start..<end).get() == expected, "end \(end)")
        }
    }

    @Test("a range no candidate covers (another end, another start, another algorithm) gets its own value")
    func uncoveredRanges() async throws {
        let file = try File()
        let ahead = TusChecksumAhead(file: file.snapshot)
        let uncovered: [(TusChecksumAlgorithm, Range<Int64>)] = [
            (.sha256, Self.start..<Self.start + 1_000), (.sha256, 4_096..<Self.ends[1]), (.sha1, Self.start..<Self.ends[1]),
        ]
        for (algorithm, range) in uncovered {
            ahead.prepare(.sha256, from: Self.start, to: Self.ends)
            let value = try await Self.header(ahead, algorithm, range).get()
            #expect(value == (try TusChunkChecksum.header(algorithm, of: file.snapshot, range: range)), "\(algorithm) \(range)")
        }
    }

    @Test("a range not hashed ahead is read when asked for: a changed file fails it")
    func uncoveredRangeReadsTheFile() async throws {
        let file = try File()
        let ahead = TusChecksumAhead(file: file.snapshot)
        ahead.prepare(.sha256, from: Self.start, to: [Self.ends[0]])
        try await Task.sleep(for: .seconds(1))
        try file.change()
        await #expect(throws: UploadError.self) { try await Self.header(ahead, .sha256, Self.start..<Self.ends[1]).get() }
    }
}
