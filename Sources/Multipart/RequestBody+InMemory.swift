extension RequestBody {
    /// The body with its files read into memory: one run of bytes, the same length and content
    /// type. Reading checks each file as streaming does (unchanged when opened, and once its
    /// range was read), so the bytes are the files as they were prepared.
    ///
    /// For small bodies only (a few dozen KiB): the whole body is held in memory.
    ///
    /// - Returns: A body that reads no file when it is sent; `self` when it reads none already.
    /// - Throws: `MultipartError.fileChanged` or `.fileReadFailed` naming the file.
    public func readIntoMemory() throws(MultipartError) -> RequestBody {
        guard !files.isEmpty else { return self }
        let reader = makeReader(chunkSize: Int(max(1, contentLength)))
        defer { reader.close() }
        let space = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(contentLength), alignment: 1)
        defer { space.deallocate() }
        var filled = 0
        while filled < space.count {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: space[filled...]))
            guard count > 0 else { break }
            filled += count
        }
        // On to the body's end, so the last file's final check runs.
        var scratch: UInt8 = 0
        let extra = try withUnsafeMutableBytes(of: &scratch) { (space) throws(MultipartError) -> Int in
            try reader.read(into: space)
        }
        precondition(filled == space.count && extra == 0, "a body reader produced other than its length")
        return RequestBody(segments: [.bytes([UInt8](space))], contentType: contentType)
    }
}
