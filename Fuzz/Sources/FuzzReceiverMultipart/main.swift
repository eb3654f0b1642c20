import Dispatch
import Foundation
import NIOCore
import NIOPosix
@testable import Receiver
import FuzzSupport

/// `ferry serve`'s multipart reader (`FormDataReader` on Ferry's own streaming `FormDataParser`)
/// on an arbitrary body with the boundary `fz`, storing files in a scratch directory.
///
/// The first input byte picks how the body is cut into chunks (1 to 64 bytes, or whole); the
/// rest is the body. Checked beyond "no crash":
/// - chunking does not matter: the body read whole and read in chunks gives the same record
///   (fields, and each file's field, filename, saved name, size, type and SHA-256), or both
///   are rejected;
/// - a record's files are exactly the files in the directory, each directly inside it, with the
///   size the record says; a rejected body leaves no file behind.
let pool: NIOThreadPool = {
    let pool = NIOThreadPool(numberOfThreads: 1)
    pool.start()
    return pool
}()
let directory: String = {
    let path = NSTemporaryDirectory() + "ferry-fuzz-multipart-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// A result handed from a task to the thread waiting for it (the semaphore orders the accesses).
final class Box<T>: @unchecked Sendable {
    var value: T?
    let done = DispatchSemaphore(value: 0)
}

/// Runs `body` to its end on the global executor while this (libFuzzer's) thread waits.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = Box<T>()
    Task {
        box.value = await body()
        box.done.signal()
    }
    box.done.wait()
    return box.value!
}

/// The record with the files' sizes on disk, or nil when the body was rejected.
func read(_ body: [UInt8], chunk: Int) -> UploadRecord? {
    blocking {
        let reader = FormDataReader(boundary: "fz", directory: directory, limits: ReceiverLimits(maxParts: 50, maxFieldSize: 4096),
                                    faults: FaultInjector(plan: FaultPlan()), keepsFiles: true, pool: pool, slots: UploadSlots(limit: 1))
        do {
            var offset = 0
            repeat {
                let end = min(body.count, offset + chunk)
                try await reader.consume(ByteBuffer(bytes: body[offset..<end]))
                offset = end
            } while offset < body.count
            return try await reader.finish()
        } catch {
            await reader.abandon()
            return nil
        }
    }
}

/// The sizes of the directory's entries (every one a plain file, checked); empties the directory.
/// Read with readdir, so names that are not UTF-8 are found and removed too.
func takeFiles() -> [Int64] {
    guard let handle = opendir(directory) else { fatalError("cannot open \(directory)") }
    defer { closedir(handle) }
    let descriptor = dirfd(handle)
    var sizes: [Int64] = []
    while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
        if name == [0x2E] || name == [0x2E, 0x2E] { continue }
        var info = stat()
        let found = name.withUnsafeBufferPointer { bytes in
            (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { path in
                defer { unlinkat(descriptor, path.baseAddress!, 0) }
                return fstatat(descriptor, path.baseAddress!, &info, AT_SYMLINK_NOFOLLOW)
            }
        }
        require(found == 0 && (info.st_mode & S_IFMT) == S_IFREG, "\(name) is not a plain file")
        sizes.append(Int64(info.st_size))
    }
    return sizes.sorted()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard count > 0, let start else { return 0 }
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let chunk = input[0] < 192 ? Int(input[0] % 64) + 1 : Int.max
    let body = Array(input[1...])

    let whole = read(body, chunk: Int.max)
    let wholeFiles = takeFiles()
    let chunked = read(body, chunk: chunk)
    let chunkedFiles = takeFiles()

    for (record, files) in [(whole, wholeFiles), (chunked, chunkedFiles)] {
        guard let record else {
            require(files.isEmpty, "a rejected body left \(files.count) files")
            continue
        }
        require(record.files.count == files.count, "record has \(record.files.count) files, directory \(files.count)")
        require(record.files.map(\.size).sorted() == files, "record sizes \(record.files.map(\.size)), disk \(files)")
    }
    require(whole == chunked, "chunks of \(chunk) changed the record: \(String(describing: whole)) vs \(String(describing: chunked))")
    return 0
}

// SwiftPM renames this executable's `main` to `FuzzReceiverMultipart_main`: libFuzzer's driver runs from here.
@_cdecl("FuzzReceiverMultipart_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { fuzz($0, $1) }
}
