import Multipart
import Testing

/// Reads a whole body through a reader with the given chunk size.
func collect(_ body: MultipartBody, chunkSize: Int = RequestBody.defaultChunkSize) throws -> [UInt8] {
    let reader = body.makeReader(chunkSize: chunkSize)
    var bytes: [UInt8] = []
    while let chunk = try reader.nextChunk() {
        #expect(chunk.count <= chunkSize)
        bytes += chunk
    }
    return bytes
}

/// Deterministic pseudo-random bytes (SplitMix64), so golden data is reproducible.
func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    var out: [UInt8] = []
    out.reserveCapacity(count)
    while out.count < count {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        withUnsafeBytes(of: z) { out += $0.prefix(count - out.count) }
    }
    return out
}
