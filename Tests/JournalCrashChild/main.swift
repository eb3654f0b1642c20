// The child of `JournalCrashTests`: queues jobs in a journal, starts uploading through a fake
// transport and kills itself with SIGKILL in the middle, journal writes possibly pending.
//
// Usage: JournalCrashChild JOURNAL-PATH JOB-COUNT (the files are written beside the journal).
import Dispatch
import Foundation
import TestSupport
import Uploading

let arguments = CommandLine.arguments
guard arguments.count == 3, let jobCount = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: JournalCrashChild JOURNAL-PATH JOB-COUNT\n".utf8))
    exit(2)
}
let path = arguments[1]
let directory = (path as NSString).deletingLastPathComponent
let journal = try UploadJournal(path: path)
let transport = FakeTransport()
let manager = UploadManager(configuration: .init(concurrencyLimit: 3), transport: transport, journal: journal)
let succeeded = DispatchSemaphore(value: 0)
let subscription = manager.subscribe { events in
    if events.contains(where: { if case .succeeded = $0 { true } else { false } }) { succeeded.signal() }
}
let specs = (0..<jobCount).map { index -> UploadJobSpec in
    let file = (directory as NSString).appendingPathComponent("file\(index).bin")
    _ = FileManager.default.createFile(atPath: file, contents: Data(repeating: 0x42, count: 1000))
    return UploadJobSpec(url: "http://127.0.0.1:9/upload", files: [QueuedFile.capture(path: file)])
}
let ids = try manager.enqueue(specs)
while !Set(transport.inFlightJobIDs).isSuperset(of: ids.prefix(2)) { usleep(1000) }
transport.progress(job: ids[0], bytesSent: 500)
transport.respond(job: ids[1], status: 200)
succeeded.wait()
// Mid-upload: requests in flight, journal writes possibly pending.
kill(getpid(), SIGKILL)
withExtendedLifetime(subscription) {}
