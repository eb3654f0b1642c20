import Dispatch
import Foundation
import HTTPUploadTransport
import Synchronization
import UploadModel
import UploadEngine
import UploadJournal

/// The cancel soak (issue 23; not a test, CI does not run it): FILES small files (100–300 bytes)
/// at concurrency 8 through the real `UploadManager`, the real HTTP transport and a real journal,
/// against `ferry serve --dir D --delay 50` (spawned from the given binary), with 5 % of the jobs
/// cancelled at a random moment around their start (0–180 ms after the job 8 places before
/// started) — so cancels land while a job is queued, before its last byte, between the last byte
/// and the answer, and after the answer. Counted server-side,
/// where a second copy of NAME.EXT is stored as NAME-1.EXT.
///
/// Usage: `cancel-soak FERRY_BINARY [FILES] [SEED]` (FILES defaults to 10,000). Prints one JSON
/// line of counts and a sentence:
/// - `duplicates`: files stored more than once (must be 0);
/// - `cancelledStored`: jobs shown cancelled whose file was stored (must be 0: a clean cancel
///   means not stored);
/// - `succeededNotStored`: jobs shown succeeded whose file was not stored (must be 0);
/// - `mayHaveArrivedStored` / `mayHaveArrivedNotStored`: jobs shown "may have arrived" (the user
///   decides; reported);
/// - `failedStored`: other failed jobs whose file was stored (must be 0: only "may have arrived"
///   may have been stored);
/// - `unfinished`: jobs that ended in no final state (must be 0).
@main
struct CancelSoak {
    /// A job's end as the events showed it.
    enum Shown: Equatable {
        case succeeded
        case cancelled
        case mayHaveArrived
        case failed(String)
    }

    /// What the event handler keeps.
    struct Tally {
        var shown: [UploadJobID: Shown] = [:]
        var cancelAsked: Set<UploadJobID> = []
        var started: Set<UploadJobID> = []
        /// Chosen jobs whose cancel was asked before their `started` event was seen.
        var cancelledBeforeStart: Set<UploadJobID> = []
        /// Jobs shown cancelled with an attempt started.
        var cancelledInFlight: Set<UploadJobID> = []
    }

    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: cancel-soak FERRY_BINARY [FILES] [SEED]\n".utf8))
            exit(2)
        }
        let ferry = arguments[1]
        let count = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
        let seed = arguments.count > 3 ? UInt64(arguments[3]) ?? UInt64.random(in: 1...UInt64.max) : UInt64.random(in: 1...UInt64.max)
        var random = SplitMix(seed: seed)

        let work = NSTemporaryDirectory() + "ferry-cancel-soak-\(UUID().uuidString.prefix(8))"
        let files = work + "/files", uploads = work + "/up", state = work + "/state"
        for directory in [files, uploads, state] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let names = (1...count).map { String(format: "f%05d.bin", $0) }
        for name in names {
            let size = 100 + Int(random.next() % 201)
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            FileManager.default.createFile(atPath: files + "/" + name, contents: Data(bytes))
        }

        // The receiver: its first output line is the upload URL.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: ferry)
        server.arguments = ["serve", "--port", "0", "--dir", uploads, "--delay", "50"]
        let serverOutput = work + "/serve.jsonl"
        FileManager.default.createFile(atPath: serverOutput, contents: nil)
        server.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: serverOutput))
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        var url = ""
        for _ in 0..<200 where url.isEmpty {
            if let text = try? String(contentsOfFile: serverOutput, encoding: .utf8), let line = text.split(separator: "\n").first {
                url = String(line)
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        guard url.hasPrefix("http") else { fatalError("ferry serve printed no URL") }

        // 5 % of the jobs, chosen at random, are cancelled at a random moment around their start:
        // 0-180 ms after the `started` event of the job 8 places before (at concurrency 8 and a
        // 50 ms answer, about one round before its own start), so that cancels land while it is
        // queued, as it starts, between its last byte and the answer, and after the answer. (The
        // events reach a subscriber up to 10 ms after the step, so a delay counted from the job's
        // own `started` event would almost never land before a small body's last byte.)
        var picked: Set<Int> = []
        while picked.count < count / 20 { picked.insert(Int(random.next() % UInt64(count))) }
        let chosen = picked
        let delays = (0..<count).map { _ in Int(random.next() % 181) }

        let journal = try UploadJournal(path: state + "/journal.sqlite")
        let transport = HTTPTransport()
        let manager = UploadManager(configuration: UploadQueueConfiguration(concurrencyLimit: 8), transport: transport, journal: journal)
        let specs = names.map { UploadJobSpec(url: url, files: [QueuedFile.capture(path: files + "/" + $0)]) }
        let tally = Mutex(Tally())
        let indexOf = Mutex<[UploadJobID: Int]>([:])
        let ids = Mutex<[UploadJobID]>([])
        let cancels = DispatchQueue(label: "ferry.cancel-soak.cancels", attributes: .concurrent)
        let subscription = manager.subscribe { events in
            for event in events {
                switch event {
                case let .started(job):
                    let first = tally.withLock { $0.started.insert(job.id).inserted }
                    guard first, let anchor = indexOf.withLock({ $0[job.id] }) else { continue }
                    // The first 8 jobs are their own anchors.
                    for index in anchor < 8 ? [anchor, anchor + 8] : [anchor + 8] where index < count && chosen.contains(index) {
                        let target = ids.withLock { $0[index] }
                        cancels.asyncAfter(deadline: .now() + .milliseconds(delays[index])) {
                            tally.withLock { tally in
                                if !tally.started.contains(target) { tally.cancelledBeforeStart.insert(target) }
                                _ = tally.cancelAsked.insert(target)
                            }
                            manager.cancel(target)
                        }
                    }
                case let .succeeded(job):
                    tally.withLock { $0.shown[job.id] = .succeeded }
                case let .cancelled(job):
                    tally.withLock { tally in
                        tally.shown[job.id] = .cancelled
                        // An attempt had started: cancelled in flight, before the last byte.
                        if job.attempts > 0 { tally.cancelledInFlight.insert(job.id) }
                    }
                case let .failed(job, reason):
                    tally.withLock { $0.shown[job.id] = job.mayHaveArrived ? .mayHaveArrived : .failed(reason.description) }
                case .queued, .progressed, .retrying, .removed, .pausedChanged, .idle:
                    continue
                case let .journalFailed(error):
                    FileHandle.standardError.write(Data("journal failed: \(error)\n".utf8))
                }
            }
        }
        let clock = ContinuousClock()
        let began = clock.now
        // IDs are known only once queued; the subscription sees `started` after this returns
        // (starts go through the root queue), but the map must be there first.
        manager.pause()
        let queued = try manager.enqueue(specs)
        ids.withLock { $0 = queued }
        indexOf.withLock { map in for (index, id) in queued.enumerated() { map[id] = index } }
        manager.resume()
        // A cancel may still be on its way when the queue goes idle (its job already ended).
        _ = await manager.waitUntilIdle()
        try await Task.sleep(for: .milliseconds(200))
        _ = await manager.waitUntilIdle()
        let took = began.duration(to: clock.now)
        subscription.cancel()
        manager.flushJournal()
        try journal.close()
        try await transport.shutdown()
        // The server may store a body whose answer the client no longer waited for.
        try await Task.sleep(for: .milliseconds(500))
        server.terminate()
        server.waitUntilExit()

        var stored: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: uploads) {
            guard let match = name.firstMatch(of: /^(f\d+)(?:-\d+)?\.bin$/) else { continue }
            stored[String(match.1) + ".bin", default: 0] += 1
        }
        let final = tally.withLock { $0 }
        var counts: [String: Int] = [
            "files": count, "cancelAsked": final.cancelAsked.count, "duplicates": 0, "cancelledStored": 0, "cancelled": 0,
            "succeededNotStored": 0, "succeeded": 0, "mayHaveArrivedStored": 0, "mayHaveArrivedNotStored": 0,
            "failedStored": 0, "failedNotStored": 0, "unfinished": 0, "cancelAskedButSucceeded": 0,
            "cancelAskedBeforeStart": final.cancelledBeforeStart.count, "cancelledInFlight": 0, "cancelAskedMayHaveArrived": 0,
        ]
        var examples: [String: [String]] = [:]
        func note(_ key: String, _ name: String) {
            counts[key, default: 0] += 1
            if examples[key, default: []].count < 5 { examples[key, default: []].append(name) }
        }
        for (index, id) in ids.withLock({ $0 }).enumerated() {
            let name = names[index]
            let copies = stored[name] ?? 0
            if copies > 1 { note("duplicates", name) }
            switch final.shown[id] {
            case .succeeded?:
                counts["succeeded", default: 0] += 1
                if final.cancelAsked.contains(id) { counts["cancelAskedButSucceeded", default: 0] += 1 }
                if copies == 0 { note("succeededNotStored", name) }
            case .cancelled?:
                counts["cancelled", default: 0] += 1
                if final.cancelledInFlight.contains(id) { counts["cancelledInFlight", default: 0] += 1 }
                if copies > 0 { note("cancelledStored", name) }
            case .mayHaveArrived?:
                if final.cancelAsked.contains(id) { counts["cancelAskedMayHaveArrived", default: 0] += 1 }
                note(copies > 0 ? "mayHaveArrivedStored" : "mayHaveArrivedNotStored", name)
            case let .failed(reason)?:
                note(copies > 0 ? "failedStored" : "failedNotStored", name + ": " + reason)
            case nil:
                note("unfinished", name)
            }
        }
        var line = counts.mapValues { $0 as Any }
        line["seconds"] = (Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
        line["seed"] = seed
        line["work"] = work
        if !examples.isEmpty { line["examples"] = examples }
        let json = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
        print("\(count) files, \(final.cancelAsked.count) cancels asked: duplicates \(counts["duplicates"]!), "
              + "cancelled but stored \(counts["cancelledStored"]!) (of \(counts["cancelled"]!) cancelled: "
              + "\(counts["cancelAskedBeforeStart"]!) asked before the start was seen, \(counts["cancelledInFlight"]!) in flight), "
              + "succeeded but not stored \(counts["succeededNotStored"]!), may have arrived \(counts["mayHaveArrivedStored"]!) stored "
              + "/ \(counts["mayHaveArrivedNotStored"]!) not, other failures stored \(counts["failedStored"]!) / not \(counts["failedNotStored"]!), "
              + "unfinished \(counts["unfinished"]!), cancel after the last byte \(counts["cancelAskedMayHaveArrived"]!), "
              + "cancel lost to the answer \(counts["cancelAskedButSucceeded"]!); "
              + String(format: "%.1f s", line["seconds"] as! Double))
    }
}

/// A seeded generator, so that a run can be repeated (`SEED`).
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
