import Dispatch
import FerryConfig
import FerryHeadless
import FileSystem
import FoundationEssentials
import Glibc
import HTTPUploadTransport
import Multipart
import JSON
import UploadModel
import UploadEngine
import UploadJournal

/// Carries out `ferry send`: queues the jobs in the manager (with the journal), prints events
/// and waits until the queue is idle. SIGINT, SIGTERM or SIGHUP aborts the requests in flight,
/// keeps their jobs queued in the journal (for `--resume`) and exits with status 130; so does a
/// standard output that can no longer be written (`| head -1`), with status 141.
///
/// A long list of files is planned and queued slice by slice, a small slice first: the first
/// uploads start while the rest are still being recorded (queueing 20,000 files took a tenth of
/// the run before anything was sent). Ending early waits until every file is queued, so
/// `--resume` has them all.
struct SendRunner {
    /// How many files the first slice plans and queues: enough to fill the connections.
    static let firstSliceSize = 32
    /// The largest slice: one journal transaction each.
    static let largestSliceSize = 1024
    /// Set to 1, `ferry send` prints the HTTP client's connection census (``ConnectionPoolCensus``)
    /// to standard error at exit: once the queue is idle and once the pool is shut down.
    static let censusVariable = "FERRY_CONNECTION_CENSUS"

    /// The manager's limits, retry policy and timeouts.
    var configuration: UploadQueueConfiguration
    /// The transport's settings.
    var transportConfiguration: HTTPTransport.Configuration
    /// Whether to write JSON Lines instead of human output.
    var json: Bool
    /// Whether to send the journal's unfinished jobs, and its failed ones that may be sent again
    /// by themselves, first (``UploadManager/restoreForSending()``); the failed jobs that wait for
    /// the user are named and left in the journal for `ferry jobs`.
    var resume: Bool
    /// Where a JSON answer holds the link to what was uploaded (`--response-field`); nil for
    /// ``ResponseLink/keys``.
    var responseField: JSONPointer?
    /// The filename each file found in a folder (`-r`) is sent with, by path.
    var partFilenames: [String: String] = [:]

    /// Runs the jobs for `files`.
    ///
    /// - Parameters:
    ///   - files: The FILE arguments.
    ///   - bundle: Whether all files go in one request.
    ///   - template: The request every job shares (``UploadPlanner/template()``); nil when
    ///     nothing new is sent (`--resume` alone).
    /// - Returns: The summary when the queue is idle.
    func run(files: [String], bundle: Bool, template: UploadJobSpec?) async throws -> UploadSummary {
        let transport = HTTPTransport(configuration: transportConfiguration)
        // The first request's connection opens on the event loop while the journal opens here.
        // One only: the others open as their requests start, so none is left unused when a file
        // fails before its request (a server that serves one connection at a time would wait on it).
        if let template, let target = try? UploadTarget(template.url) {
            transport.warm(for: target, options: template.connection, count: 1, connectTimeout: configuration.connectTimeout)
        }
        // One rule in every command: a journal that cannot be opened is an error, and nothing is
        // sent unrecorded (a run without one could not be resumed, nor be told from a repeat).
        let journal: UploadJournal?
        do {
            journal = try UploadJournal.openDefault(client: .send)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        let manager = UploadManager(configuration: configuration, transport: transport, journal: journal)
        let events = DispatchQueue(label: "ferry.send.events")
        let queueing = DispatchGroup()
        queueing.enter()
        let printer = HumanEventPrinter(output: StandardStream.output, isTerminal: isatty(STDOUT_FILENO) == 1,
                                        responseField: responseField)
        let start = DispatchTime.now()
        let json = json
        // Ending early, every job's outcome is printed, then a summary that says so.
        let termination = SendTermination(manager: manager, journal: journal, events: events, queueing: queueing) { summary in
            if json {
                try? StandardStream.output.write(SendEventRecord(summary: summary, interrupted: true).jsonLine() + "\n")
            } else {
                try? printer.finish(summary, seconds: Self.seconds(since: start), interrupted: true)
            }
        }
        let subscription = manager.subscribe(on: events) { batch in
            for case let .journalFailed(error) in batch {
                // Nothing new may start: what is in flight ends, and --resume has the rest.
                termination.endSoon(because: error.description, status: 1)
            }
            do throws(StandardStreamError) {
                if json {
                    // One write per batch: a busy queue's lines go out together.
                    var lines = ""
                    for event in batch {
                        guard let record = SendEventRecord(event, responseField: responseField) else { continue }
                        lines += record.jsonLine()
                        lines += "\n"
                    }
                    if !lines.isEmpty { try StandardStream.output.write(lines) }
                } else {
                    try printer.handle(batch)
                }
            } catch {
                termination.endSoon(because: error.description, status: error.exitStatus)
            }
        }
        let signals = installSignalHandlers(termination)
        do {
            defer { queueing.leave() }
            if resume {
                let left = try manager.restoreForSending().left
                if !left.isEmpty { try report(left) }
            } else {
                // An earlier killed run's marks go into its rows now, not at some later --resume.
                try journal?.absorbMarksOfEndedRuns()
            }
            if let template { try enqueue(files, bundle: bundle, template: template, into: manager) }
        } catch {
            if template != nil, case .journalFailed? = error as? UploadError {
                // Jobs already queued may be in flight: stop them and keep them for --resume.
                termination.end(because: "\(error)", status: 1)
            }
            signals.forEach { $0.cancel() }
            subscription.cancel()
            try? await transport.shutdown()
            try? journal?.close()
            throw error
        }
        let summary = await manager.waitUntilIdle()
        events.sync {}
        await termination.finishNormally()
        let seconds = Self.seconds(since: start)
        manager.flushJournal()
        let idleCensus = transport.connectionCensus
        try? await transport.shutdown()
        if ProcessInfo.processInfo.environment[Self.censusVariable] == "1" {
            // For soaks (Benchmarks/soak.sh): the pool once the queue was idle, and once closed.
            StandardStream.error.writeLineIgnoringFailure(
                "ferry: connection census: idle queue: \(idleCensus); after shutdown: \(transport.connectionCensus)")
        }
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

    /// The seconds since `start`.
    private static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// Names the failed jobs `--resume` leaves in the journal, on standard output (a `left` event
    /// each with `--json`), and on standard error how to retry or forget them.
    private func report(_ left: [UploadJob]) throws {
        let text = left.map { job in
            json ? SendEventRecord(left: job).jsonLine() + "\n" : HumanEventPrinter.leftLine(job) + "\n"
        }.joined()
        try StandardStream.output.write(text)
        StandardStream.error.writeLineIgnoringFailure(
            "ferry: \(left.count) failed job\(left.count == 1 ? "" : "s") left in the journal (retrying cannot help, or it may "
                + "have arrived): `ferry jobs` lists them, `ferry jobs retry ID` sends one again, `ferry jobs forget --failed` drops them")
    }

    /// Plans and queues the files' jobs slice by slice (all at once in bundle mode), the first
    /// slice small.
    private func enqueue(_ files: [String], bundle: Bool, template: UploadJobSpec,
                         into manager: UploadManager) throws(UploadError) {
        guard !bundle, !files.isEmpty else {
            do {
                try manager.enqueue(UploadPlanner.jobs(for: files, bundle: bundle, template: template, partFilenames: partFilenames))
            } catch {
                if case .journalFailed = error { nameUnqueued(files[...]) }
                throw error
            }
            return
        }
        var start = 0
        var size = Self.firstSliceSize
        while start < files.count {
            let end = min(files.count, start + size)
            do {
                try manager.enqueue(UploadPlanner.jobs(for: files[start..<end], template: template,
                                                        partFilenames: partFilenames))
            } catch {
                if case .journalFailed = error { nameUnqueued(files[start...]) }
                throw error
            }
            start = end
            size = min(size * 4, Self.largestSliceSize)
        }
    }

    /// Names, on standard error, the FILEs the journal could not record: they are not queued,
    /// and `--resume` will not know them.
    private func nameUnqueued(_ files: ArraySlice<String>) {
        var text = "ferry: \(files.count) FILE(s) not queued, the journal could not record them (send them again):\n"
        for file in files { text += "  \(FileSystemName.escaped(file))\n" }
        try? StandardStream.error.write(text)
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
