import Dispatch
import Foundation
import Multipart
import Uploading

/// Carries out `ferry send`: queues the jobs in the manager (with the journal), prints events
/// and waits until the queue is idle. SIGINT, SIGTERM or SIGHUP aborts the requests in flight,
/// keeps their jobs queued in the journal (for `--resume`) and exits with status 130.
struct SendRunner {
    /// The manager's limits, retry policy and timeouts.
    var configuration: UploadManager.Configuration
    /// The transport's settings.
    var transportConfiguration: AsyncHTTPClientTransport.Configuration
    /// Whether to write JSON Lines instead of human output.
    var json: Bool
    /// Whether to restore the journal's unfinished and failed jobs first.
    var resume: Bool

    /// Runs the jobs.
    ///
    /// - Parameter jobs: The new jobs.
    /// - Returns: The summary when the queue is idle.
    func run(_ jobs: [UploadJobSpec]) async throws -> UploadSummary {
        let journal = UploadJournal.openDefaultOrWarn()
        let transport = AsyncHTTPClientTransport(configuration: transportConfiguration)
        let manager = UploadManager(configuration: configuration, transport: transport, journal: journal)
        let events = DispatchQueue(label: "ferry.send.events")
        let printer = HumanEventPrinter(output: .standardOutput, isTerminal: isatty(STDOUT_FILENO) == 1)
        let subscription = manager.subscribe(on: events) { event in
            if json {
                if let record = SendEventRecord(event) { Self.write(record.jsonLine()) }
            } else {
                printer.handle(event)
            }
        }
        let signals = installSignalHandlers(manager: manager, journal: journal, events: events)
        let start = DispatchTime.now()
        do {
            if resume {
                _ = try manager.restore()
            }
            try manager.enqueue(jobs)
        } catch {
            signals.forEach { $0.cancel() }
            subscription.cancel()
            try? await transport.shutdown()
            try? journal?.close()
            throw error
        }
        let summary = await manager.waitUntilIdle()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        manager.flushJournal()
        try? await transport.shutdown()
        events.sync {
            if json {
                Self.write(SendEventRecord(summary: summary).jsonLine())
            } else {
                printer.finish(summary, seconds: seconds)
            }
        }
        subscription.cancel()
        signals.forEach { $0.cancel() }
        try? journal?.close()
        return summary
    }

    /// SIGINT, SIGTERM and SIGHUP: stop the manager (in-flight jobs go back to queued), write the
    /// journal, exit 130. A SIGHUP ignored at start (`nohup`) stays ignored.
    private func installSignalHandlers(manager: UploadManager, journal: UploadJournal?,
                                       events: DispatchQueue) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].compactMap { number in
            let previous = signal(number, SIG_IGN)
            if number == SIGHUP, let previous, unsafeBitCast(previous, to: Int.self) == 1 { return nil }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                manager.stop()
                manager.flushJournal()
                try? journal?.close()
                events.sync {}
                FileHandle.standardError.write(Data("ferry: interrupted; unfinished jobs are kept for `ferry send --resume`\n".utf8))
                exit(130)
            }
            source.resume()
            return source
        }
    }

    private static func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
