import FileSystem
import Foundation
import Multipart
import Testing
@testable import UploadModel
@testable import UploadProtocols

/// `Upload-Metadata`, `OPTIONS` capabilities and the checksum algorithm choice.
@Suite("tus metadata and discovery")
struct TusEncodingTests {
    /// Decodes a header value back into pairs (what a server does).
    static func decode(_ header: String) -> [String: [UInt8]] {
        var pairs: [String: [UInt8]] = [:]
        for item in header.split(separator: ",") {
            let parts = item.split(separator: " ", maxSplits: 1)
            pairs[String(parts[0])] = parts.count > 1 ? Array(Data(base64Encoded: String(parts[1]))!) : []
        }
        return pairs
    }

    @Test("pairs are key base64(value), comma-separated, in order; an empty value is the key alone")
    func encode() throws {
        let header = try TusMetadata.encode([(key: "filename", value: Array("ä b.txt".utf8)), (key: "empty", value: []),
                                             (key: "n", value: Array("1".utf8))])
        #expect(header == "filename w6QgYi50eHQ=,empty,n MQ==")
    }

    @Test("keys that are empty, hold a space or comma, or repeat are refused", arguments: ["", "a b", "a,b", "a\tb", "dup"])
    func badKeys(key: String) {
        let pairs: [(key: String, value: [UInt8])] = key == "dup" ? [(key: "dup", value: [1]), (key: "dup", value: [2])] : [(key: key, value: [1])]
        #expect(throws: UploadError.tusFailed(reason: .metadataKeyInvalid(key: key))) { try TusMetadata.encode(pairs) }
    }

    @Test("a file's metadata: filename as its name's bytes (not UTF-8 too), filetype, then -F parameters")
    func fileMetadata() throws {
        let name = FileSystemName.decode([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x74, 0x78, 0x74])  // "caf\xE9.txt"
        let header = try TusMetadata.header(path: "/tmp/dir/" + name, fileType: "text/plain",
                                            parameters: [FormTextField(name: "note", value: "héllo, world")])
        #expect(header.hasPrefix("filename ") && header.contains(",filetype ") && header.contains(",note "))
        let pairs = Self.decode(header)
        #expect(pairs["filename"] == [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x74, 0x78, 0x74])
        #expect(pairs["filetype"] == Array("text/plain".utf8))
        #expect(pairs["note"] == Array("héllo, world".utf8))
    }

    @Test("-F filename and filetype replace Ferry's own")
    func overrides() throws {
        let header = try TusMetadata.header(path: "a.bin", fileType: "application/octet-stream",
                                            parameters: [FormTextField(name: "filetype", value: "image/png"),
                                                         FormTextField(name: "filename", value: "b.png")])
        #expect(Self.decode(header) == ["filetype": Array("image/png".utf8), "filename": Array("b.png".utf8)])
    }

    @Test("OPTIONS: versions, extensions (case-insensitive), maximum size, and the checksum only with the extension")
    func capabilities() throws {
        func answer(_ headers: [(String, String)]) -> TusServerCapabilities? {
            TusServerCapabilities(UploadResponse(status: 204, headers: headers.map { HeaderField(name: $0.0, value: $0.1) }))
        }
        #expect(answer([("Tus-Extension", "creation")]) == nil)
        let full = try #require(answer([("tus-version", "1.0.0, 0.2.2"), ("Tus-Extension", "Creation, termination,checksum"),
                                        ("Tus-Max-Size", "1073741824"), ("Tus-Checksum-Algorithm", "md5, sha1")]))
        #expect(full.versions == ["1.0.0", "0.2.2"])
        #expect(full.extensions == ["creation", "termination", "checksum"])
        #expect(full.maximumSize == 1_073_741_824 && full.checksum == .sha1)
        let noChecksum = try #require(answer([("Tus-Version", "1.0.0"), ("Tus-Checksum-Algorithm", "sha256")]))
        #expect(noChecksum.checksum == nil && noChecksum.maximumSize == nil)
    }

    @Test("the strongest algorithm Ferry computes: sha256 over sha1; none of them is nil")
    func strongest() {
        #expect(TusChecksumAlgorithm.strongest(of: ["sha1", "SHA256", "md5"]) == .sha256)
        #expect(TusChecksumAlgorithm.strongest(of: ["md5", "sha1"]) == .sha1)
        #expect(TusChecksumAlgorithm.strongest(of: ["md5", "crc32"]) == nil)
    }

    @Test("a job journaled before --no-checksum existed sends checksums; the option round-trips")
    func optionsDecoding() throws {
        let old = try JSONDecoder().decode(TusJobOptions.self, from: Data(#"{"chunkSize":4096}"#.utf8))
        #expect(old == TusJobOptions(chunkSize: 4096, sendsChecksums: true))
        let without = TusJobOptions(chunkSize: 8, sendsChecksums: false)
        #expect(try JSONDecoder().decode(TusJobOptions.self, from: JSONEncoder().encode(without)) == without)
    }
}
