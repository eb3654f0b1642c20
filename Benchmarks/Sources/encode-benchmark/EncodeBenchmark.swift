import Foundation
import Multipart

/// Encodes a file into a discarding sink, or reads it with a plain loop, and prints one JSON line
/// with the bytes, the seconds, the throughput and the process's peak RSS.
///
/// Usage: `encode-benchmark encode|read FILE [CHUNK_BYTES]`. Run each mode in its own process so
/// each peak RSS is its own; `Benchmarks/run.sh` alternates them and prints the ratio.
@main
struct EncodeBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, ["encode", "read"].contains(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: encode-benchmark encode|read FILE [CHUNK_BYTES]\n".utf8))
            exit(2)
        }
        let path = arguments[2]
        let chunkSize = arguments.count > 3 ? Int(arguments[3])! : RequestBody.defaultChunkSize
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var checksum: UInt8 = 0
        let start = DispatchTime.now()
        var total: Int64 = 0
        if arguments[1] == "read" {
            let fd = open(path, O_RDONLY)
            precondition(fd >= 0, "cannot open \(path)")
            while true {
                let count = read(fd, buffer.baseAddress, chunkSize)
                if count <= 0 { break }
                total += Int64(count)
                checksum ^= buffer[count - 1]
            }
            close(fd)
        } else {
            var form = MultipartForm()
            form.addText(name: "description", value: "benchmark")
            form.addFile(name: "file", path: path)
            let body = try MultipartEncoder().prepare(form)
            let reader = body.makeReader(chunkSize: chunkSize)
            while true {
                let count = try reader.read(into: buffer)
                if count == 0 { break }
                total += Int64(count)
                checksum ^= buffer[count - 1]
            }
            precondition(total == body.contentLength, "produced \(total) bytes, declared \(body.contentLength)")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        print(#"{"mode":"\#(arguments[1])","bytes":\#(total),"seconds":\#(seconds),"mbPerSecond":\#(Double(total) / seconds / 1e6),"peakRSSKiB":\#(peakRSSKiB()),"checksum":\#(checksum)}"#)
    }

    /// `VmHWM` from `/proc/self/status`: the process's peak resident set size.
    static func peakRSSKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
}
