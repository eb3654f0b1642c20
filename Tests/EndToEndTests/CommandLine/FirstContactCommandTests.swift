import Foundation
import Multipart
import Receiver
import TestSupport
import Testing
import UploadModel

/// The built binary as a newcomer with curl's habits meets it (run as an ordinary user when the
/// tests run as root): `--version`, typos, numbers, header lines, URLs without a scheme, `-F`
/// alone, `ferry serve`'s first line, and the journal from the command line.
@Suite("First contact (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct FirstContactCommandTests {
    @Test("ferry --version and every subcommand's --version print the version", arguments: [
        ["--version"], ["send", "--version"], ["serve", "--version"], ["jobs", "--version"],
    ])
    func version(arguments: [String]) async throws {
        let dir = TemporaryDirectory()
        let process = try FerryProcess(arguments, stateHome: dir.path("state"))
        #expect(try await process.exitStatus() == 0, "\(process.errorText)")
        #expect(process.outputLines.count == 1)
        #expect(process.outputLines.first?.wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "\(process.outputLines)")
    }

    @Test("with a FILE given, help, version, completion scripts and usage errors still speak as `ferry send`")
    func sendWithFileSpeaksAsFerry() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 3)
        let url = ["--url", "http://127.0.0.1:9/up"]
        let help = try FerryProcess(["send"] + url + ["--help", file], stateHome: dir.path("state"))
        #expect(try await help.exitStatus() == 0, "\(help.errorText)")
        #expect(help.outputLines.contains { $0.hasPrefix("USAGE: ferry send ") }, "\(help.outputLines.prefix(5))")
        let version = try FerryProcess(["send"] + url + ["--version", file], stateHome: dir.path("state"))
        #expect(try await version.exitStatus() == 0, "\(version.errorText)")
        #expect(version.outputLines.first?.wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "\(version.outputLines)")
        // The shell named in the `=` form, as the parser's own error asks: after a subcommand it
        // takes `--generate-completion-script bash` as a request to autodetect from $SHELL
        // (which a CI runner may not set). $SHELL names another shell, so the named one must win.
        let script = try FerryProcess(["send"] + url + ["--generate-completion-script=bash", file],
                                      stateHome: dir.path("state"), environment: ["SHELL": "/bin/zsh"])
        #expect(try await script.exitStatus() == 0, "\(script.errorText)")
        #expect(script.outputLines.first == "#!/bin/bash", "\(script.outputLines.prefix(2))")
        #expect(script.outputLines.contains { $0.contains("_ferry") }, "the script completes ferry, not send alone")
        let usage = try FerryProcess(["send"] + url + ["--timeout", "0", file], stateHome: dir.path("state"))
        #expect(try await usage.exitStatus() == 2)
        #expect(usage.errorText.contains("--timeout must be more than 0 seconds"), "\(usage.errorText)")
        #expect(usage.errorText.contains("ferry send --help"), "\(usage.errorText)")
    }

    @Test("an unknown option is named first, with the option meant, not 'the URL is missing'")
    func unknownOptionNamedFirst() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 3)
        for arguments in [["send", "--ulr", "http://127.0.0.1:9/up", file], ["--ulr", "http://127.0.0.1:9/up"]] {
            let process = try FerryProcess(arguments, stateHome: dir.path("state"))
            #expect(try await process.exitStatus() == 2)
            let firstLine = process.errorText.split(separator: "\n").first.map(String.init) ?? ""
            #expect(firstLine.contains("--ulr"), "\(process.errorText)")
            #expect(process.errorText.contains("--url"), "a suggestion: \(process.errorText)")
            #expect(!process.errorText.contains("required"), "\(process.errorText)")
        }
    }

    @Test("bad numbers, header lines and parts from standard input are usage errors (exit 2) that say what is wrong", arguments: [
        (["--retry", "-1"], "--retry must be 0 or more, got -1"),
        (["--concurrency", "0"], "--concurrency must be at least 1, got 0"),
        (["--retry", "lots"], "lots"),
        (["-H", "X-One: a\r\nX-Two: b"], "X-One"),
        (["-H", "Bad Name: x"], "Bad Name"),
        (["-F", "file=@-"], "does not read a file part from standard input"),
        (["-F", "note=<-;type=text/plain"], "does not read a value from standard input"),
    ] as [([String], String)])
    func usageErrors(options: [String], message: String) async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 3)
        let process = try FerryProcess(["send", "--url", "http://127.0.0.1:9/up"] + options + [file], stateHome: dir.path("state"))
        #expect(try await process.exitStatus() == 2, "\(process.errorText)")
        #expect(process.errorText.contains(message), "\(process.errorText)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("state/ferry/journal.sqlite")), "nothing was journaled")
    }

    @Test("a URL without a scheme is http://; -F file=@x alone is named and counted; parts keep their order")
    func curlSpelling() async throws {
        let dir = TemporaryDirectory()
        let data = dir.file("x.bin", bytes: 5)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("received"))) { server in
            let schemeless = String(server.baseURL.dropFirst("http://".count)) + "/upload"
            let process = try FerryProcess(["send", "--url", schemeless, "-F", "file=@\(data)"], stateHome: dir.path("state"))
            #expect(try await process.exitStatus() == 0, "\(process.errorText)")
            #expect(process.outputLines.first == "done    x.bin  5 B  HTTP 200", "\(process.outputLines)")
            #expect(process.outputLines.last?.hasPrefix("1 succeeded, 0 failed, 0 cancelled; 5 B in ") == true, "\(process.outputLines)")
            #expect(server.receivedUploads.first?.files.first?.size == 5)
        }
        let notes = try dir.write("b.txt", Array("bee".utf8))
        let dry = try FerryProcess(["send", "--dry-run", "--url", "127.0.0.1:9/up", "-F", "title=T", "-F", "doc=@\(data)",
                                    "-F", "n=<\(notes)"], stateHome: dir.path("state"))
        #expect(try await dry.exitStatus() == 0, "\(dry.errorText)")
        let names = dry.outputLines.compactMap { $0.firstMatch(of: /Content-Disposition: form-data; name="([^"]+)"/).map { String($0.1) } }
        #expect(names == ["title", "doc", "n"], "\(dry.outputLines)")
        #expect(dry.outputLines.contains("Host: 127.0.0.1:9"), "\(dry.outputLines)")
    }

    @Test("the URL where curl takes it: among the FILEs, anywhere; two, or one and --url, are usage errors")
    func urlAmongTheFiles() async throws {
        let dir = TemporaryDirectory()
        let data = dir.file("x.bin", bytes: 5)
        let other = dir.file("y.bin", bytes: 6)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("received"))) { server in
            let url = server.baseURL + "/upload"
            let curlLike = try FerryProcess(["send", "-F", "file=@\(data)", "-F", "note=hi", url], stateHome: dir.path("state"))
            #expect(try await curlLike.exitStatus() == 0, "\(curlLike.errorText)")
            let files = try FerryProcess(["send", data, url, "--json", other], stateHome: dir.path("state"))
            #expect(try await files.exitStatus() == 0, "\(files.errorText)")
            #expect(files.outputLines.last?.contains("\"succeeded\":2") == true, "\(files.outputLines)")
            let uploads = server.receivedUploads
            #expect(uploads.count == 3)
            #expect(uploads.first?.fields["note"] == ["hi"], "\(uploads.first?.fields ?? [:])")
            #expect(uploads.flatMap(\.files).map(\.size).sorted() == [5, 5, 6])
        }
        for (arguments, message) in [
            (["send", data, "http://127.0.0.1:9/a", "HTTPS://127.0.0.1:9/b"], "two URLs"),
            (["send", "--url", "http://127.0.0.1:9/a", data, "http://127.0.0.1:9/b"], "--url gives one too"),
            (["send", "--url=http://127.0.0.1:9/a", "http://127.0.0.1:9/b", data], "--url gives one too"),
            (["http://127.0.0.1:9/a"], "give it with --url"),
        ] {
            let process = try FerryProcess(arguments, stateHome: dir.path("state"))
            #expect(try await process.exitStatus() == 2, "\(arguments): \(process.errorText)")
            #expect(process.errorText.contains(message), "\(arguments): \(process.errorText)")
        }
        // After `--`, a FILE with such a name is a FILE.
        let literal = try FerryProcess(["send", "--url", "http://127.0.0.1:9/a", "--", "http://127.0.0.1:9/b"], stateHome: dir.path("state"))
        #expect(try await literal.exitStatus() == 1, "\(literal.errorText)")
        #expect(literal.outputLines.first?.contains("no such file") == true, "\(literal.outputLines)")
    }

    @Test("a file the user cannot read fails alone, saying so; the others upload (as the user, not as root)")
    func unreadableFileFailsAlone() async throws {
        let dir = TemporaryDirectory()
        let first = dir.file("first.txt", bytes: 3)
        let secret = dir.file("secret.txt", bytes: 4)
        let last = dir.file("last.txt", bytes: 5)
        #expect(chmod(secret, 0) == 0)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("received"))) { server in
            let process = try FerryProcess(["send", "--url", server.baseURL + "/upload", first, secret, last], stateHome: dir.path("state"))
            let status = try await process.exitStatus()
            if getuid() == 0 && !Unprivileged.isDropping { return }  // root without setpriv reads any file
            #expect(status == 1)
            #expect(process.outputLines.contains { $0.hasPrefix("failed  secret.txt: ") && $0.contains("ermission denied") },
                    "\(process.outputLines)")
            #expect(process.outputLines.last?.hasPrefix("2 succeeded, 1 failed") == true, "\(process.outputLines)")
            #expect(server.receivedUploads.count == 2)
        }
    }

    @Test("ferry serve prints the upload URL first, and an upload there lands")
    func serveFirstLine() async throws {
        let receiver = try await SpawnedReceiver.start()
        defer { receiver.terminate() }
        #expect(receiver.uploadURL.wholeMatch(of: /http:\/\/127\.0\.0\.1:\d+\/upload/) != nil, "\(receiver.uploadURL)")
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 7)
        let process = try FerryProcess(["send", "--url", receiver.uploadURL, file], stateHome: dir.path("state"))
        #expect(try await process.exitStatus() == 0, "\(process.errorText) \(process.outputLines)")
        #expect(receiver.uploadCount == 1)
    }

    @Test("--resume without a journal it can open is an error (exit 1), not a quiet success")
    func resumeNeedsTheJournal() async throws {
        let dir = TemporaryDirectory()
        let notAFolder = dir.file("state", bytes: 1)
        let process = try FerryProcess(["send", "--resume"], stateHome: notAFolder)
        #expect(try await process.exitStatus() == 1)
        #expect(process.errorText.contains("journal"), "\(process.errorText)")
    }

    @Test("--resume sends what can be retried, names what it leaves; ferry jobs lists, retries and forgets")
    func resumeAndJobs() async throws {
        let dir = TemporaryDirectory()
        let flaky = dir.file("flaky.txt", bytes: 10)
        let refused = dir.file("refused.txt", bytes: 20)
        let state = dir.path("state")
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("ok"), faults: FaultPlan(failFirst: 1))) { ok in
            try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("no"), faults: FaultPlan(status: 403))) { no in
                let first = try FerryProcess(["send", "--retry", "0", "--url", ok.baseURL + "/upload", flaky], stateHome: state)
                #expect(try await first.exitStatus() == 1, "the 500 fails with --retry 0")
                let second = try FerryProcess(["send", "--url", no.baseURL + "/upload", refused], stateHome: state)
                #expect(try await second.exitStatus() == 1, "the 403 fails")

                let resume = try FerryProcess(["send", "--resume"], stateHome: state)
                #expect(try await resume.exitStatus() == 0, "\(resume.outputLines) \(resume.errorText)")
                #expect(resume.outputLines.contains("done    flaky.txt  10 B  HTTP 200"), "\(resume.outputLines)")
                let left = try #require(resume.outputLines.first { $0.hasPrefix("left    #") }, "\(resume.outputLines)")
                #expect(left.contains("refused.txt") && left.contains("403"), "\(left)")
                #expect(resume.errorText.contains("ferry jobs"), "\(resume.errorText)")
                #expect(resume.outputLines.last?.hasPrefix("1 succeeded, 0 failed") == true, "\(resume.outputLines)")

                let list = try FerryProcess(["jobs", "--json"], stateHome: state)
                #expect(try await list.exitStatus() == 0, "\(list.errorText)")
                // The succeeded job's row stays until the next run takes the journal over.
                let failed = list.jsonEvents.filter { $0["state"] as? String == "failed" }
                #expect(failed.count == 1, "\(list.outputLines)")
                #expect(failed.first?["path"] as? String == refused)
                #expect(failed.first?["mayHaveArrived"] as? Bool == false)
                let id = try #require(failed.first?["id"] as? Int)

                let retry = try FerryProcess(["jobs", "retry", "#\(id)"], stateHome: state)
                #expect(try await retry.exitStatus() == 1, "the server still refuses it")
                #expect(retry.outputLines.contains { $0.hasPrefix("failed  refused.txt") && $0.contains("403") }, "\(retry.outputLines)")

                let forget = try FerryProcess(["jobs", "forget", "--failed"], stateHome: state)
                #expect(try await forget.exitStatus() == 0, "\(forget.errorText)")
                #expect(forget.outputLines == ["forgot 1 job"])
                let empty = try FerryProcess(["jobs"], stateHome: state)
                #expect(try await empty.exitStatus() == 0)
                #expect(empty.outputLines.first?.hasPrefix("no jobs in ") == true, "\(empty.outputLines)")
            }
        }
    }
}
