// The child of `JournalCrashTests`: queues jobs in a journal, starts uploading through a fake
// transport and kills itself with SIGKILL in the middle.
//
// Usage:
//   JournalCrashChild JOURNAL-PATH mixed JOB-COUNT — several jobs, one answered, journal writes
//     possibly pending;
//   JournalCrashChild JOURNAL-PATH STEP — one job, killed at STEP with the journal's rows held
//     back (another connection holds SQLite's write lock, so nothing after the job's insert
//     reaches the rows and only the marks written ahead can tell): `queued` (paused, never
//     started), `sending` (some body bytes written), `body-sent` (the last byte let go),
//     `answered` (a 2xx, its event delivered).
// The files are written beside the journal.
import Dispatch
import Foundation
import SQLiteDatabase
import TestSupport
import UploadModel
import UploadEngine
import UploadJournal

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: JournalCrashChild JOURNAL-PATH (mixed JOB-COUNT | STEP)\n".utf8))
    exit(2)
}
let path = arguments[1]
let mode = arguments[2]
let directory = (path as NSString).deletingLastPathComponent
let journal = try UploadJournal(path: path)
let transport = FakeTransport()
let manager = UploadManager(configuration: .init(concurrencyLimit: 3), transport: transport, journal: journal)
let succeeded = DispatchSemaphore(value: 0)
let subscription = manager.subscribe { events in
    if events.contains(where: { if case .succeeded = $0 { true } else { false } }) { succeeded.signal() }
}

func spec(_ index: Int) -> UploadJobSpec {
    let file = (directory as NSString).appendingPathComponent("file\(index).bin")
    try? TestFile.write([UInt8](repeating: 0x42, count: 1000), to: file)
    return UploadJobSpec(url: "http://127.0.0.1:9/upload", files: [QueuedFile.capture(path: file)])
}

func waitUntilInFlight(_ ids: some Collection<UploadJobID>) {
    while !Set(transport.inFlightJobIDs).isSuperset(of: ids) { usleep(1000) }
}

if mode == "mixed", arguments.count == 4, let jobCount = Int(arguments[3]) {
    let ids = try manager.enqueue((0..<jobCount).map(spec))
    waitUntilInFlight(ids.prefix(2))
    transport.progress(job: ids[0], bytesSent: 500)
    transport.respond(job: ids[1], status: 200)
    succeeded.wait()
    // Mid-upload: requests in flight, journal writes possibly pending.
    kill(getpid(), SIGKILL)
}

// One job, killed at a step, with the rows held back.
if mode == "queued" { manager.pause() }
let id = try manager.enqueue(spec(0))
// Another connection takes SQLite's write lock and keeps it until the kill.
let holding = DispatchSemaphore(value: 0)
DispatchQueue.global().async {
    guard let holder = try? SQLiteConnection(path: path) else { exit(4) }
    try? holder.transaction { db in
        try db.execute("INSERT OR REPLACE INTO form_state (key, value, updated_at) VALUES ('crash-test', x'00', 0)")
        holding.signal()
        while true { sleep(60) }
    }
}
holding.wait()
switch mode {
case "queued":
    _ = manager.snapshot()
case "sending":
    waitUntilInFlight([id])
    transport.progress(job: id, bytesSent: 10)
case "body-sent":
    waitUntilInFlight([id])
    guard transport.sendWholeBody(job: id) else { exit(3) }
case "answered":
    waitUntilInFlight([id])
    guard transport.sendWholeBody(job: id) else { exit(3) }
    transport.respond(job: id, status: 200)
    succeeded.wait()
default:
    FileHandle.standardError.write(Data("unknown step \(mode)\n".utf8))
    exit(2)
}
kill(getpid(), SIGKILL)
withExtendedLifetime(subscription) {}
