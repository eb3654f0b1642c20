import Dispatch
import FerryRuntime
import Foundation
import Multipart
import Uploading

/// Carries out `ferry send`: queues the jobs in the manager (with the journal), prints events
/// and waits until the queue is idle. SIGINT, SIGTERM or SIGHUP aborts the requests in flight,
/// keeps their jobs queued in the journal (for `--resume`) and exits with status 130; so does a
/// standard output that can no longer be written (`| head -1`), with status 141.
struct SendRunner {
    /// The manager's limits, retry policy and timeouts.
    var configuration: UploadQueueConfiguration
    /// The transport's settings.
    var transportConfiguration: HTTPTransport.Configuration
    /// Whether to write JSON Lines instead of human output.
    var json: Bool
    /// Whether to restore the journal's unfinished and failed jobs first.
    var resume: Bool

    /// Runs the jobs.
    ///
    /// - Parameter jobs: The new jobs.
    /// - Returns: The summary when the queue is idle.
    func run(_ jobs: [UploadJobSpec]) async throws -> UploadSummary {
        let journal = UploadJournal.openDefaultOrWarn(client: .send)
        let transport = HTTPTransport(configuration: transportConfiguration)
        let manager = UploadManager(configuration: configuration, transport: transport, journal: journal)
        let events = DispatchQueue(label: "ferry.send.events")
        let termination = SendTermination(manager: manager, journal: journal, events: events)
        let printer = HumanEventPrinter(output: StandardStream.output, isTerminal: isatty(STDOUT_FILENO) == 1)
        let subscription = manager.subscribe(on: events) { batch in
            guard !termination.isTerminating else { return }
            do throws(StandardStreamError) {
                if json {
                    // One write per batch: a busy queue's lines go out together.
                    let lines = batch.compactMap(SendEventRecord.init).map { $0.jsonLine() + "\n" }
                    if !lines.isEmpty { try StandardStream.output.write(lines.joined()) }
                } else {
                    try printer.handle(batch)
                }
            } catch {
                termination.endSoon(because: error.description, status: error.exitStatus)
            }
        }
        let signals = installSignalHandlers(termination)
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
        events.sync {}
        await termination.finishNormally()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        manager.flushJournal()
        try? await transport.shutdown()
        events.sync {
            // Every job has ended: a summary nobody reads any more loses nothing.
            if json {
                try? StandardStream.output.write(SendEventRecord(summary: summary).jsonLine() + "\n")
            } else {
                try? printer.finish(summary, seconds: seconds)
            }
        }
        subscription.cancel()
        signals.forEach { $0.cancel() }
        try? journal?.close()
        return summary
    }

    /// SIGINT, SIGTERM and SIGHUP end the run through `termination` with status 130. A SIGHUP
    /// ignored at start (`nohup`) stays ignored.
    private func installSignalHandlers(_ termination: SendTermination) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].compactMap { number in
            let previous = signal(number, SIG_IGN)
            if number == SIGHUP, let previous, unsafeBitCast(previous, to: Int.self) == 1 { return nil }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                termination.end(because: "interrupted", status: 130)
            }
            source.resume()
            return source
        }
    }
}
