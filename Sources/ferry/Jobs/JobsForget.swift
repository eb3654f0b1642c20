import ArgumentParser
import FerryHeadless
import UploadJournal

/// `ferry jobs forget`: deletes jobs from the journal.
struct JobsForget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Delete jobs from the journal (by ID, or --failed, --finished, --all).",
        discussion: "Forgotten jobs are never sent again by `ferry send --resume` or the interface."
    )

    @Flag(name: .long, help: "Every failed job.")
    var failed = false

    @Flag(name: .long, help: "Every succeeded or cancelled job.")
    var finished = false

    @Flag(name: .long, help: "Every job, unfinished ones included.")
    var all = false

    @Argument(help: "Job IDs, as `ferry jobs` lists them (12 or #12).")
    var ids: [JobIDArgument] = []

    mutating func validate() throws {
        guard failed || finished || all || !ids.isEmpty else {
            throw ValidationError("name the jobs to forget (IDs from `ferry jobs`) or give --failed, --finished or --all")
        }
    }

    func run() throws {
        let journal = try UploadJournal.openDefault(client: .send)
        defer { try? journal.close() }
        var chosen = ids.map(\.id)
        if failed || finished || all {
            chosen += try journal.allJobs().filter { job in
                all || (failed && job.state == .failed) || (finished && (job.state == .succeeded || job.state == .cancelled))
            }.map(\.id)
        }
        let count = try journal.forgetJobs(chosen)
        try StandardStream.output.write("forgot \(count) job\(count == 1 ? "" : "s")\n")
    }
}
