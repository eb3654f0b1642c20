import ArgumentParser
import FerryHeadless
import FoundationEssentials
import Glibc

/// The `ferry` command: the interactive interface by default, `send` and `serve` as subcommands.
@main
struct Ferry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ferry",
        abstract: "Upload files to HTTP endpoints with multipart/form-data.",
        discussion: """
            Run `ferry` in a terminal to browse, pick files, set the form and watch the upload \
            queue: `ferry --url URL [FOLDER]` uploads to URL, and `ferry --demo` starts a \
            bundled receiver and opens sample files to try it. `ferry send` is the same engine \
            headless (curl-like options, JSON Lines events); `ferry jobs` lists, retries and \
            forgets the journal's jobs; `ferry serve` is a small receiving server. `ferry help \
            ui` lists every option of the interface.
            """,
        version: FerryVersion.current,
        subcommands: [Interface.self, Send.self, Serve.self, Jobs.self],
        defaultSubcommand: Interface.self
    )

    /// Runs the command; usage errors exit with status 2 (argument parser's default is 64),
    /// other failures with 1 and a `ferry: ` line on standard error; SIGPIPE is ignored and no
    /// signal stays blocked.
    /// Arguments are decoded from the raw `argv` bytes, losslessly (`FileSystemName`); `ferry
    /// send`'s FILEs bypass the parser, and a URL among them is its `--url`, as curl takes it
    /// (`SendFileArguments`).
    static func main() async {
        MallocArenas.useOne()
        // A parent may start ferry with signals blocked (Foundation's `Process` passes on the
        // spawning thread's mask, and a test runner's worker threads block nearly all): INT, TERM
        // and HUP must reach the interface and `ferry send`.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigprocmask(SIG_SETMASK, &unblocked, nil)
        // A closed pipe is an error to handle (`StandardStream` throws on EPIPE), not a signal
        // that kills the process (SwiftNIO ignores SIGPIPE only once it opens a socket).
        signal(SIGPIPE, SIG_IGN)
        let given = CommandLine.fileSystemArguments
        // A typo is named before anything the parser would say of the option it then misses.
        if let (option, meant) = SendFileArguments.unknownOption(in: given) {
            sendUsageFailure("Unknown option '\(option)'." + (meant.map { " Did you mean '\($0)'?" } ?? ""))
        }
        // `ferry send -F file=@a.jpg https://…`: the URL where curl takes it.
        let arguments: [String]
        do {
            arguments = try SendFileArguments.placingURL(in: given)
        } catch {
            sendUsageFailure(error.description)
        }
        do {
            let sendFiles = SendFileArguments(arguments)
            var command: ParsableCommand
            if let send = parsedAsSend(sendFiles) {
                command = send
            } else {
                command = try parseAsRoot(sendFiles?.parserArguments ?? arguments)
            }
            if var send = command as? Send, let sendFiles {
                send.files = sendFiles.files
                command = send
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            // A failure at run time (not a usage error, not a bare exit status) reads like the
            // rest of ferry's diagnostics rather than argument parser's "Error: ...".
            let isRuntimeFailure = code == .failure && !(error is ExitCode)
            let message = isRuntimeFailure ? "ferry: \(error)" : fullMessage(for: error)
            if !message.isEmpty {
                if code == .success {
                    print(message)
                } else {
                    StandardStream.error.writeLineIgnoringFailure(message)
                }
            }
            Glibc.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }

    /// Says a usage error of `ferry send` as the parser would, and exits with status 2.
    nonisolated private static func sendUsageFailure(_ message: String) -> Never {
        StandardStream.error.writeLineIgnoringFailure("Error: \(message)\n  See 'ferry send --help' for more information.")
        Glibc.exit(2)
    }

    /// `ferry send …` parsed with `Send` as the root command: when that succeeds, it is the
    /// command the whole tree parses, without the tree's own work — the parser reflects on the
    /// default subcommand's options (the interface's) and on `send`'s once more, looking for
    /// arguments that take the rest of the line (Benchmarks/RESULTS.md, "Start-up"). Whatever
    /// else the parser has to say (help, version, a completion script, a usage error) is left to
    /// the whole tree, which says it with `ferry`'s name.
    ///
    /// - Parameter arguments: The split arguments of `ferry send`, if they run it.
    /// - Returns: The parsed `send` command, or nil when the whole tree must parse.
    nonisolated private static func parsedAsSend(_ arguments: SendFileArguments?) -> Send? {
        guard let arguments else { return nil }
        // A `--help` parses too, as the parser's help command, which would name `send` alone.
        return (try? Send.parseAsRoot(Array(arguments.parserArguments.dropFirst()))) as? Send
    }
}
