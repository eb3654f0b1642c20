import ArgumentParser
import FerryHeadless
import UploadModel

/// `ferry jobs`: the journal from the command line — list its jobs, send failed ones again,
/// forget finished or failed ones (the interface's `r`, `x` and `d`, for scripts).
struct Jobs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "List the journal's jobs, send failed ones again, or forget them.",
        discussion: """
            The journal keeps every job that has not succeeded or been cancelled, so `ferry send \
            --resume` and the interface can take them up again. `ferry jobs` lists them; `ferry \
            jobs retry ID...` (or `--failed`) queues failed jobs again and sends them now; `ferry \
            jobs forget ID...` (or `--failed`, `--finished`, `--all`) deletes them. Nothing is \
            changed while another ferry has the journal open.
            """,
        version: FerryVersion.current,
        subcommands: [JobsList.self, JobsRetry.self, JobsForget.self],
        defaultSubcommand: JobsList.self
    )
}
