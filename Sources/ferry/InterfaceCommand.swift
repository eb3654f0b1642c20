import ArgumentParser
import FerryApp
import FerryConfig
import FerryHeadless
import FerryResources
import FerryRuntime
import Dispatch
import FileSystem
import FoundationEssentials
import Glibc
import HTTPUploadTransport
import Multipart
import NcursesBackend
import Receiver
import TerminalUI
import UploadModel
import UploadEngine
import UploadJournal

/// `ferry`: the interactive interface — browse, pick files, set the form, watch the queue.
struct Interface: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "Open the interactive interface (the default): browse, pick, upload, watch, retry.",
        version: FerryVersion.current
    )

    @OptionGroup var formOptions: FormOptions

    @Flag(name: .long, help: "Start the bundled receiver on a free port and open the sample files.")
    var demo = false

    @Argument(help: "The folder the file browser opens in.")
    var directory: String?

    func run() async throws {
        // `ferry https://…`, as curl takes a URL: say where it goes rather than open no folder.
        // Here, not in `validate()`, which the parser runs before it names an unknown option.
        if let directory, UploadTarget.isURLArgument(directory) {
            throw ValidationError("'\(directory)' is a URL, not a folder: give it with --url (ferry --url \(directory)); a folder of such a name is ./NAME")
        }
        do {
            try TerminalCapability.check()
        } catch {
            StandardStream.error.writeLineIgnoringFailure("ferry: \(error.description)")
            throw ExitCode(2)
        }
        // A journal that cannot be opened is an error, as in every command: the interface's queue
        // is kept there.
        let journal: UploadJournal? = try UploadJournal.openDefault(client: .interface)
        var settings = try formOptions.formSettings()
        if !formOptions.describesRequests && !demo, var saved = try? journal.map(InterfaceStateStore.init(journal:))?.value(FormSettings.self) {
            // Connection options given now win; otherwise the environment fills what the saved
            // form leaves unset (a proxy, the authorities), as it would for curl.
            saved.connection = formOptions.connection.anyGiven
                ? settings.connection
                : saved.connection.fillingUnset(from: ConnectionOptions(environment: ProcessInfo.processInfo.environment))
            settings = saved
        }
        let currentDirectory = FileSystemName.currentDirectory() ?? "/"
        var folder = absolute(directory ?? currentDirectory, in: currentDirectory)
        var receiver: ReceiverServer?
        var notice: String?
        if demo {
            let uploads = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-demo-\(getpid())").path
            let server = try await ReceiverServer.start(ReceiverConfiguration(port: 0, directory: uploads))
            receiver = server
            settings.url = server.baseURL + "/upload"
            folder = BundledResources.samplesDirectory ?? folder
            notice = "demo: receiver at \(server.baseURL), saving into \(uploads)"
        }
        let transport = HTTPTransport()
        let manager = UploadManager(
            configuration: settings.queueConfiguration(journaled: journal != nil), transport: transport, journal: journal)
        let inbox = EventInbox()
        let subscription = manager.subscribe(on: DispatchQueue(label: "ferry.interface.events")) { inbox.append($0) }
        let initial = InterfaceStartup.restore(into: manager, journal: journal)
        let start = State(folder: folder, settings: settings, initial: initial, notice: notice)
        let outcome = await Self.runOnOwnThread(start: start, manager: manager, journal: journal, inbox: inbox)
        manager.stop()
        manager.flushJournal()
        subscription.cancel()
        try? journal?.close()
        try? await transport.shutdown()
        await receiver?.shutdown()
        if let signal = try outcome.get() {
            Self.end(by: signal)
        }
    }

    /// Ends the process by `signal` with its default action, as the sender meant (the shell
    /// sees "terminated", status 128 + signal), once the queue and the terminal are saved.
    private static func end(by signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
        Glibc.exit(128 + signal)
    }

    /// What the loop starts with.
    private struct State: Sendable {
        var folder: String
        var settings: FormSettings
        var initial: [AppMessage]
        var notice: String?
    }

    /// Runs the terminal loop on a thread of its own (it blocks in `readKey`), so the
    /// cooperative pool stays free for the HTTP client and the receiver. SIGINT, SIGTERM and
    /// SIGHUP end the loop like a confirmed quit; the signal is returned so the process can end
    /// by it after the queue is stopped and the journal written.
    private static func runOnOwnThread(start: State, manager: UploadManager, journal: UploadJournal?,
                                       inbox: EventInbox) async -> Result<Int32?, any Error> {
        await withCheckedContinuation { continuation in
            DedicatedThread.start {
                let result = Result<Int32?, any Error> {
                    try withTerminal(defersTermination: true) { terminal in
                        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/"
                        var state = AppState(directory: start.folder, settings: start.settings, homeDirectory: home,
                                             size: terminal.size)
                        state.notice = start.notice
                        let worker = CommandWorker(performer: EngineCommandPerformer(
                            manager: manager, journal: journal, profiles: ProfileStore(environment: ProcessInfo.processInfo.environment),
                            environment: ProcessInfo.processInfo.environment))
                        return InterfaceLoop(terminal: terminal, process: TerminalProcess(terminal: terminal), worker: worker,
                                             inbox: inbox, state: state)
                            .run(initial: start.initial)
                    }
                }
                continuation.resume(returning: result)
            }
        }
    }

    /// `path` made absolute against `currentDirectory` (said to be a directory: Foundation would
    /// otherwise stat it by its UTF-8, which misses a name that is not UTF-8) and standardised.
    private func absolute(_ path: String, in currentDirectory: String) -> String {
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true))
        return url.standardizedFileURL.path
    }
}
