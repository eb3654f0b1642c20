import ArgumentParser
import FerryHeadless
import UploadModel
import UploadJournal

/// `ferry jobs retry`: queues failed jobs again and sends them now, with the journal's other
/// unfinished jobs, as `ferry send --resume` does.
struct JobsRetry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Send failed jobs again now (by ID, or every failed one with --failed).",
        discussion: """
            A job named by its ID is sent again even when its body may have arrived: you say so. \
            --failed takes every failed job except those, which you name one by one. Exit status \
            as for `ferry send`.
            """
    )

    @Flag(name: .long, help: "Every failed job whose body certainly did not arrive, or whose server can say what it holds.")
    var failed = false

    @Flag(name: .long, help: "Write events as JSON Lines on standard output.")
    var json = false

    @Argument(help: "Job IDs, as `ferry jobs` lists them (12 or #12).")
    var ids: [JobIDArgument] = []

    mutating func validate() throws {
        guard failed || !ids.isEmpty else { throw ValidationError("name the jobs to retry (IDs from `ferry jobs`) or give --failed") }
    }

    func run() async throws {
        let journal = try UploadJournal.openDefault(client: .send)
        var chosen = ids.map(\.id)
        if failed {
            chosen += try journal.allJobs().filter { $0.state == .failed && (!$0.mayHaveArrived || $0.serverCanSayWhatArrived) }.map(\.id)
        }
        let requeued = try journal.requeueFailedJobs(chosen)
        try journal.close()
        let notFailed = Set(ids.map(\.id)).subtracting(requeued)
        if !notFailed.isEmpty {
            let list = notFailed.sorted().map { "#\($0)" }.joined(separator: ", ")
            StandardStream.error.writeLineIgnoringFailure("ferry: not a failed job in the journal: \(list) (see `ferry jobs`)")
        }
        var configuration = UploadQueueConfiguration()
        configuration.keepsSucceededJobDetails = false
        let runner = SendRunner(configuration: configuration, transportConfiguration: .init(), json: json, resume: true)
        let summary = try await runner.run(files: [], bundle: false, template: nil)
        if summary.failed > 0 || summary.cancelled > 0 || !notFailed.isEmpty { throw ExitCode.failure }
    }
}
