import Foundation
import TestSupport
import Testing

/// `scripts/install.sh` into a temporary prefix, as the README tells users to install Ferry: the
/// installed binary runs as an ordinary user and says its build, `man` renders its page, and the
/// shells' completions are where each shell looks and load.
///
/// The script installs the **debug** build (`FERRY_INSTALL_CONFIGURATION=debug`), which the test
/// command has already made: a release build would add 6 to 10 minutes to CI. Everything it runs
/// is bounded by `timeout` and waits on a thread of its own, never on the concurrency pool. `swift
/// test` holds the build folder's lock while the tests run, so the script is told not to wait for
/// it (`FERRY_INSTALL_IGNORE_LOCK=1`): its build finds the debug build done.
@Suite("Install", .serialized, .timeLimit(.minutes(30)))
struct InstallTests {
    @Test("scripts/install.sh PREFIX installs ferry, its man pages and its bash, zsh and fish completions")
    func installsIntoAPrefix() async throws {
        let prefix = TemporaryDirectory()
        let scratch = TemporaryDirectory()
        let root = FerryBinary.packageRoot
        // The plugin and the build may wait for each other and for other builds: up to 25 minutes.
        let install = ["env", "FERRY_INSTALL_CONFIGURATION=debug", "FERRY_INSTALL_IGNORE_LOCK=1", "timeout", "--kill-after=10", "1500",
                       "sh", "-c", #"exec "$0" "$1" 2>&1"#, root + "/scripts/install.sh", prefix.path]
        let (status, output) = try await onThreadOfItsOwn { try Spawn.run(install, scratch: URL(fileURLWithPath: scratch.path)) }
        try #require(status == 0, "scripts/install.sh exited \(status):\n\(output)")
        #expect(output.contains("installed ferry"), "\(output)")

        // The binary, as an ordinary user: `--version` is the release, and the commit when the
        // package is a Git checkout.
        let binary = prefix.path("bin/ferry")
        Unprivileged.handOver(foldersIn: [prefix.path])
        let version = try await onThreadOfItsOwn {
            try Spawn.run(Unprivileged.command([binary, "--version"]), scratch: URL(fileURLWithPath: scratch.path))
        }
        #expect(version.status == 0, "\(version.output)")
        #expect(version.output.firstMatch(of: #/^[0-9]+\.[0-9]+\.[0-9]+( \([^)~]+\))?\n$/#) != nil, "\(version.output)")
        let describe = try await onThreadOfItsOwn {
            try Spawn.run(["git", "-C", root, "describe", "--always", "--dirty"], scratch: URL(fileURLWithPath: scratch.path))
        }
        if describe.status == 0 {
            let commit = describe.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(version.output.contains("(\(commit))"), "`ferry --version` said \(version.output), the checkout is \(commit)")
        }

        // The demo's samples are installed where ferry looks for them (beside bin/); the MIME table
        // is compiled in (the dry run below names a JSON file's type).
        #expect(FileManager.default.fileExists(atPath: prefix.path("share/ferry/samples/README.txt")))
        let json = try scratch.write("a.json", Array("{}".utf8))
        Unprivileged.handOver(foldersIn: [scratch.path])
        let dryRun = try await onThreadOfItsOwn {
            try Spawn.run(["env", "XDG_STATE_HOME=\(scratch.path)/state"]
                          + Unprivileged.command([binary, "send", "--dry-run", "--url", "http://127.0.0.1:9/upload", json]),
                          scratch: URL(fileURLWithPath: scratch.path))
        }
        #expect(dryRun.status == 0, "\(dryRun.output)")
        #expect(dryRun.output.contains("Content-Type: application/json"), "\(dryRun.output)")

        // The man pages: `ferry.1` renders, names the command and its subcommands; a page per
        // subcommand.
        let manual = prefix.path("share/man/man1")
        let page = try await onThreadOfItsOwn {
            try Spawn.run(["env", "MANPAGER=cat", "MANWIDTH=100", "man", "-l", manual + "/ferry.1"],
                          scratch: URL(fileURLWithPath: scratch.path))
        }
        #expect(page.status == 0, "\(page.output)")
        #expect(page.output.contains("ferry"), "\(page.output)")
        #expect(page.output.contains("send"), "\(page.output)")
        #expect(page.output.contains("serve"), "\(page.output)")
        #expect(FileManager.default.fileExists(atPath: manual + "/ferry.send.1"))

        // The completions, where bash-completion, zsh and fish look under a prefix; bash loads its own.
        let completions = [
            "share/bash-completion/completions/ferry", "share/zsh/site-functions/_ferry",
            "share/fish/vendor_completions.d/ferry.fish",
        ].map { prefix.path($0) }
        for file in completions {
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            #expect(size > 0, "\(file) is missing or empty")
        }
        let bash = try await onThreadOfItsOwn {
            try Spawn.run(["bash", "-c", #"source "$0" && complete -p ferry"#, completions[0]],
                          scratch: URL(fileURLWithPath: scratch.path))
        }
        #expect(bash.status == 0, "\(bash.output)")
        #expect(bash.output.contains("ferry"), "\(bash.output)")
        #expect(try String(contentsOfFile: completions[1], encoding: .utf8).hasPrefix("#compdef ferry"))
        #expect(try String(contentsOfFile: completions[2], encoding: .utf8).contains("complete -c 'ferry'"))
    }
}

/// Runs blocking `work` (a child process to wait for) on a new thread, so the concurrency pool's
/// few threads are never held for the minutes a build may take under load.
///
/// - Parameter work: The blocking work.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
private func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
