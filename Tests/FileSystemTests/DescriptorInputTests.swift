import Foundation
@testable import FileSystem
import Testing

@Suite("Reading a descriptor to its end")
struct DescriptorInputTests {
    @Test("every byte of a file longer than one read, from the descriptor's position; a closed descriptor's error")
    func readsToEnd() throws {
        let path = NSTemporaryDirectory() + "descriptor-input-\(getpid()).bin"
        defer { unlink(path) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        #expect(lseek(descriptor, 10, SEEK_SET) == 10)
        #expect(try DescriptorInput.readToEnd(descriptor).get() == Array(bytes.dropFirst(10)))
        #expect(try DescriptorInput.readToEnd(descriptor).get() == [])
        close(descriptor)
        #expect(throws: DescriptorInput.Failure(errno: EBADF)) { try DescriptorInput.readToEnd(descriptor).get() }
    }
}
