import Dispatch
import FerryApp
import FerryRuntime
import Foundation
import HTTPUploadTransport
import TerminalUI
import UploadEngine
import UploadJournal

/// The interface's queue-memory figure: the model and the engine as `ferry DIRECTORY` runs them,
/// without a terminal. It opens DIRECTORY, selects every file (`a`), queues them (`u`) in an
/// `UploadManager` with the journal and the HTTP transport, applies the upload events to the
/// model as the interface loop does and draws a frame (a visible page of the Queue pane) about
/// ten times a second. It prints the peak RSS once every job is in the Queue pane, and again when
/// the queue is idle or after SECONDS (a stalled receiver keeps the jobs queued).
///
/// Usage: `queue-memory-benchmark DIRECTORY URL SECONDS` (the journal goes under
/// `$XDG_STATE_HOME`).
@main
struct QueueMemoryBenchmark {
    static func main() async throws {
        // One malloc arena for all threads, as `ferry`'s main sets it (MallocArenas).
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        if let mallopt = dlsym(nil, "mallopt") { _ = unsafeBitCast(mallopt, to: Mallopt.self)(-8, 1) }
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let seconds = Double(arguments[3]) else {
            FileHandle.standardError.write(Data("usage: queue-memory-benchmark DIRECTORY URL SECONDS\n".utf8))
            exit(2)
        }
        let directory = arguments[1]
        let settings = FormSettings(url: arguments[2], concurrency: 8, retries: 0)
        let transport = HTTPTransport()
        let journal = try UploadJournal.openDefault()
        let manager = UploadManager(
            configuration: settings.queueConfiguration(journaled: true), transport: transport, journal: journal)
        let inbox = EventInbox()
        let subscription = manager.subscribe(on: DispatchQueue(label: "ferry.benchmark.events")) { inbox.append($0) }

        let start = DispatchTime.now()
        var state = AppState(directory: directory, settings: settings, homeDirectory: "/", size: Size(width: 120, height: 40))
        var pending: [AppMessage] = []
        func perform(_ commands: [AppCommand]) throws {
            for command in commands {
                switch command {
                case .loadDirectory(let path, let focusName):
                    pending.append(.directoryLoaded(DirectoryReader.read(path, focusName: focusName)))
                case .enqueue(let specs):
                    try manager.enqueue(specs)
                default:
                    break
                }
            }
        }
        func settle() throws {
            while !pending.isEmpty {
                let batch = pending
                pending = []
                for message in batch { try perform(state.update(message)) }
            }
        }
        try perform(state.start())
        try settle()
        let files = state.browser.shownEntries.count
        for key in ["a", "u"] {
            pending.append(.keyPressed(.char(Character(key))))
            try settle()
        }

        var queuedFigure: String?
        var lastFrame = DispatchTime.now()
        let deadline = start + .milliseconds(Int(seconds * 1000))
        var checksum = 0
        while DispatchTime.now() < deadline {
            var batches = inbox.drain()
            for index in batches.indices {
                for event in batches[index] {
                    try perform(state.update(.uploadEventReceived(event)))
                    try settle()
                }
                batches[index] = []
            }
            if DispatchTime.now() >= lastFrame + .milliseconds(100) {
                checksum &+= AppView.render(state, size: state.size).cells.count
                lastFrame = DispatchTime.now()
            }
            let summary = state.queue.summary
            if queuedFigure == nil, summary.total >= files {
                queuedFigure = figure("all \(files) jobs in the Queue pane", since: start)
            }
            if queuedFigure != nil, summary.queued + summary.uploading == 0 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let summary = state.queue.summary
        print(queuedFigure ?? figure("only \(summary.total) of \(files) jobs in the Queue pane", since: start))
        print(figure("\(summary.succeeded) succeeded, \(summary.queued + summary.uploading) still queued or uploading",
                     since: start) + " [\(checksum % 7)]")
        manager.stop()
        manager.flushJournal()
        subscription.cancel()
        try? journal.close()
        try? await transport.shutdown()
    }

    /// "interface, WHAT: peak RSS N MiB after S s".
    static func figure(_ what: String, since start: DispatchTime) -> String {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return String(format: "interface, %@: peak RSS %.1f MiB after %.1f s", what, Double(usage.ru_maxrss) / 1024, seconds)
    }
}
