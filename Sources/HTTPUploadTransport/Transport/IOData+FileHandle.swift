import NIOCore

extension IOData {
    /// Closes a file region's handle — its write completed or failed, or it is not written after
    /// all; nothing for bytes. Regions from `FileRegionReader` own their descriptor.
    func closeFileHandle() {
        if case let .fileRegion(region) = self { try? region.fileHandle.close() }
    }
}
