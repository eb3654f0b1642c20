import ArgumentParser
import FerryHeadless
import FoundationEssentials
import Glibc
import UploadJournal

/// `ferry jobs list` (the default of `ferry jobs`): one line per journal job.
struct JobsList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the journal's jobs: ID, state, file, URL and why a failed one failed."
    )

    @Flag(name: .long, help: "One JSON object per job (id, state, path, url, error, mayHaveArrived).")
    var json = false

    func run() throws {
        let journal = try UploadJournal.openDefault(client: .send)
        defer { try? journal.close() }
        let jobs = try journal.allJobs()
        var text = ""
        for job in jobs {
            text += (json ? JobListing(job).jsonLine() : JobListing(job).line) + "\n"
        }
        if !json && jobs.isEmpty { text = "no jobs in \(journal.path)\n" }
        try StandardStream.output.write(text)
    }
}
