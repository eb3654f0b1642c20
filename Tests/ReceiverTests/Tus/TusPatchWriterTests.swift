import Foundation
import Multipart
import NIOCore
import NIOPosix
import Testing

@testable import Receiver

@Suite("TusPatchWriter: large body buffers uncopied, small ones gathered")
struct TusPatchWriterTests {
    /// Body buffers as a connection's reads deliver them: one past the gathering size (written as
    /// it is), a few bytes (gathered), 1 MiB after them (gathered, pending is not empty), exactly
    /// the gathering size (written as it is), and a tail the drain writes.
    private static let pieces = [300 * 1024, 10, 1024 * 1024, PartFileWriter.flushThreshold, 7]

    @Test("the bytes land in order at the offset; an sha256 checksum at 0 is checked and is the upload's digest")
    func sha256AtZero() async throws {
        try await Self.withStaging { staging, pool, bytes, digests in
            let good = try await Self.write(bytes, staging: staging, pool: pool, checksum: "sha256 \(digests.sha256.base64)")
            #expect(good.checksumMatches && good.count == Int64(bytes.count))
            #expect(good.digest?.finalize().lowercaseHex == digests.sha256.hex)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: staging.dataPath(Self.id)))) == bytes)

            let other = (digests.sha256.hex.first == "0" ? "1" : "0") + digests.sha256.hex.dropFirst()
            let bad = try await Self.write(bytes, staging: staging, pool: pool, checksum: "sha256 \(Self.base64(hex: other))")
            #expect(!bad.checksumMatches, "a wrong sha256 is still refused")
        }
    }

    @Test("an sha1 checksum at 0 is checked, hashed apart from the upload's SHA-256, which is kept beside it")
    func sha1AtZero() async throws {
        try await Self.withStaging { staging, pool, bytes, digests in
            let written = try await Self.write(bytes, staging: staging, pool: pool, checksum: "sha1 \(digests.sha1.base64)")
            #expect(written.checksumMatches)
            #expect(written.digest?.finalize().lowercaseHex == digests.sha256.hex)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: staging.dataPath(Self.id)))) == bytes)

            let other = (digests.sha1.hex.first == "0" ? "1" : "0") + digests.sha1.hex.dropFirst()
            let bad = try await Self.write(bytes, staging: staging, pool: pool, checksum: "sha1 \(Self.base64(hex: other))")
            #expect(!bad.checksumMatches, "a wrong sha1 is refused")
            #expect(bad.digest?.finalize().lowercaseHex == digests.sha256.hex, "the digest beside it is still the bytes'")
        }
    }

    @Test("forty body buffers, many more chunks than may be in flight: the bytes land in order, both hashes right")
    func manyChunksPastTheWindow() async throws {
        let pieces = Array(repeating: 100 * 1024 + 3, count: 40)
        try await Self.withStaging(pieces: pieces) { staging, pool, bytes, digests in
            let written = try await Self.write(bytes, in: pieces, staging: staging, pool: pool, checksum: "sha1 \(digests.sha1.base64)")
            #expect(written.checksumMatches && written.count == Int64(bytes.count))
            #expect(written.digest?.finalize().lowercaseHex == digests.sha256.hex)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: staging.dataPath(Self.id)))) == bytes)
        }
    }

    private static let id = String(repeating: "a", count: 32)

    /// The digests of `bytes`, from sha256sum and sha1sum (not the code under test).
    private struct Digests {
        var sha256: (hex: String, base64: String)
        var sha1: (hex: String, base64: String)
    }

    private static func withStaging(
        pieces: [Int] = pieces,
        _ body: (TusStaging, NIOThreadPool, [UInt8], Digests) async throws -> Void
    ) async throws {
        let directory = NSTemporaryDirectory() + "tus-writer-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = RandomBytes.make(pieces.reduce(0, +), seed: 26)
        let source = directory + "/source"
        try Data(bytes).write(to: URL(fileURLWithPath: source))
        let sha256 = try await ChildProcess.sha256sum(source)
        let (code, output, _) = try await ChildProcess.run("/usr/bin/sha1sum", [source])
        #expect(code == 0)
        let sha1 = String(output.split(separator: " ")[0])
        let digests = Digests(sha256: (sha256, base64(hex: sha256)), sha1: (sha1, base64(hex: sha1)))
        let staging = TusStaging(uploadDirectory: directory)
        let info = TusUploadInfo(id: id, length: Int64(bytes.count), offset: 0, expiresAt: Date().addingTimeInterval(3600))
        if case .failure(let error) = staging.create(info) { throw error }
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        do {
            try await body(staging, pool, bytes, digests)
        } catch {
            try await pool.shutdownGracefully()
            throw error
        }
        try await pool.shutdownGracefully()
    }

    /// Writes `bytes` at 0 in `pieces`, drains and closes (or discards on a mismatch).
    private static func write(_ bytes: [UInt8], in pieces: [Int] = pieces, staging: TusStaging, pool: NIOThreadPool,
                              checksum: String) async throws
        -> TusPatchWriter.Written
    {
        let writer = try await TusPatchWriter.open(
            in: staging, id: id, at: 0, pool: pool, checksum: try TusChecksum(parsing: checksum), digest: TusUploadDigests().hasher(for: id, at: 0),
            slots: UploadSlots(limit: 1))
        var start = 0
        for size in pieces {
            try await writer.append(ByteBuffer(bytes: bytes[start..<start + size]))
            start += size
        }
        let written = try await writer.drain()
        if written.checksumMatches { await writer.close() } else { await writer.discard() }
        return written
    }

    private static func base64(hex: String) -> String {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data.base64EncodedString()
    }
}
