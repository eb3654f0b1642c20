import ArgumentParser

/// `ferry`: the interactive interface — browse, pick files, set the form, watch the queue.
struct Interface: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "Open the interactive interface (the default): browse, pick, upload, watch, retry."
    )

    @OptionGroup var formOptions: FormOptions

    @Flag(name: .long, help: "Start the bundled receiver on a free port and open the sample files.")
    var demo = false

    @Argument(help: "The folder the file browser opens in.")
    var directory: String?

    func run() async throws {
        throw ValidationError("the interactive interface is not built yet; use `ferry send` (headless) or `ferry serve`")
    }
}
