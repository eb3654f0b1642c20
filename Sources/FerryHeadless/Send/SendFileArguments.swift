import UploadModel

/// Takes `ferry send`'s FILE arguments out of the argument list before swift-argument-parser
/// sees them: it merges the input positions of a repeated positional value by value, which is
/// quadratic (20,000 paths took 6.4 s, 100,000 would take minutes). The parser gets the options
/// and the first FILE (so its checks see files); `Ferry.main` puts the whole list back.
///
/// Which options take a value is written out in ``valuedOptions``: reading it from the parser's
/// own description of `Send` (`_dumpHelp()`) took a fifth of a one-file run's CPU time. A test
/// compares it with that description (`ferry send --experimental-dump-help`), so a new option
/// cannot be missed.
public struct SendFileArguments: Sendable {
    /// The arguments for the parser: every option with its value, then `--` and the first FILE.
    public let parserArguments: [String]
    /// Every FILE, in order.
    public let files: [String]

    /// Splits `ferry`'s arguments (without the program name) when they run `send`.
    ///
    /// - Parameter arguments: The arguments.
    /// - Returns: The split, or nil when the arguments are not `send …` with FILEs.
    public init?(_ arguments: [String]) {
        guard arguments.first == "send" else { return nil }
        var options = ["send"]
        var files: [String] = []
        for (token, role) in zip(arguments.dropFirst(), Self.roles(of: arguments)) {
            switch role {
            case .option, .value: options.append(token)
            case .file, .fileAfterEnd: files.append(token)
            case .end: break
            }
        }
        guard let first = files.first else { return nil }
        parserArguments = options + ["--", first]
        self.files = files
    }

    /// `ferry send`'s arguments with a URL given as curl takes it, among the FILEs (`ferry send
    /// -F file=@a.jpg https://example.com/upload`), moved to `--url` right after `send`. What
    /// counts as a URL is `UploadTarget.isURLArgument`'s; a FILE of such a name is written
    /// `./NAME` or after `--`, which ends the options and the URL's place.
    ///
    /// - Parameter arguments: `ferry`'s arguments, without the program name.
    /// - Returns: The arguments, unchanged when they do not run `send` or hold no URL among the FILEs.
    /// - Throws: `SendURLArgumentError` for two URLs, or for one with `--url` as well.
    public static func placingURL(in arguments: [String]) throws(SendURLArgumentError) -> [String] {
        guard arguments.first == "send" else { return arguments }
        let roles = Self.roles(of: arguments)
        let urls = zip(1..., roles).filter { index, role in role == .file && UploadTarget.isURLArgument(arguments[index]) }.map(\.0)
        guard let first = urls.first else { return arguments }
        guard urls.count == 1 else { throw .twoURLs(arguments[first], arguments[urls[1]]) }
        let givesURLOption = zip(arguments.dropFirst(), roles).contains { token, role in
            role == .option && (token == "--url" || token.hasPrefix("--url="))
        }
        guard !givesURLOption else { throw .urlGivenTwice(arguments[first]) }
        var placed = arguments
        placed.remove(at: first)
        placed.insert(contentsOf: ["--url", arguments[first]], at: 1)
        return placed
    }

    /// The first option of `ferry send`'s arguments that `ferry send` does not have, with the
    /// option that was probably meant, so that a typo is named before anything the parser would
    /// say of the options it then misses (`--ulr` is not "--url is required").
    ///
    /// - Parameter arguments: `ferry`'s arguments, without the program name.
    /// - Returns: The unknown option and the closest known long option, if one is close; nil
    ///   when every option is known or the arguments do not run `send`.
    public static func unknownOption(in arguments: [String]) -> (option: String, meant: String?)? {
        guard arguments.first == "send" else { return nil }
        let long = valuedOptions.long.union(flags.long)
        let short = valuedOptions.short.union(flags.short)
        for (token, role) in zip(arguments.dropFirst(), roles(of: arguments)) where role == .option {
            if token.hasPrefix("--") {
                let name = String(token.dropFirst(2).prefix { $0 != "=" })
                guard long.contains(name) else {
                    let meant = long.map { ($0, EditDistance.between(name, $0)) }.filter { $0.1 <= max(2, name.count / 3) }
                        .min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
                    return ("--" + name, meant.map { "--" + $0.0 })
                }
            } else if token.count == 2, let letter = token.last, !short.contains(letter) {
                return (token, nil)
            }
        }
        return nil
    }

    /// What each argument after `send` is.
    private enum Role: Equatable {
        /// An option (`--url`, `-k`, `--retry=2`, `-kL`).
        case option
        /// The value of the option before it.
        case value
        /// A FILE (a word that does not start with `-`, or `-` alone).
        case file
        /// `--`: the options end.
        case end
        /// A FILE after `--`, whatever it looks like.
        case fileAfterEnd
    }

    /// The role of each argument after `arguments`' first (`send`), in order. Most are FILEs: one
    /// look at the first byte tells them from options. A long option takes the next argument as
    /// its value when it is one of ``valuedOptions`` and has no `=`; a two-letter short one when
    /// its letter is; an unknown option takes none.
    private static func roles(of arguments: [String]) -> [Role] {
        let (longValued, shortValued) = valuedOptions
        var roles: [Role] = []
        roles.reserveCapacity(arguments.count)
        var takesValue = false
        var ended = false
        for token in arguments.dropFirst() {
            if ended {
                roles.append(.fileAfterEnd)
            } else if takesValue {
                roles.append(.value)
                takesValue = false
            } else if token.utf8.first != UInt8(ascii: "-") || token.utf8.count == 1 {
                roles.append(.file)
            } else if token == "--" {
                roles.append(.end)
                ended = true
            } else {
                roles.append(.option)
                if token.hasPrefix("--") {
                    takesValue = longValued.contains(String(token.dropFirst(2)))
                } else {
                    takesValue = token.utf8.count == 2 && shortValued.contains(token.last!)
                }
            }
        }
        return roles
    }

    /// The long and short names of `ferry send`'s flags (options without a value), with the
    /// parser's own `--help`, `--version` and its hidden `--experimental-dump-help` and
    /// `--generate-completion-script`.
    public static let flags: (long: Set<String>, short: Set<Character>) = (
        long: ["bundle", "dry-run", "help", "hidden", "http1.1", "http2", "idempotency-key", "idempotent", "insecure", "json", "location", "no-bundle", "no-checksum",
               "no-idempotency-key", "no-idempotent", "no-insecure", "no-location", "no-resumable", "no-tus", "print-curl",
               "recursive", "resumable", "resume", "show-secrets", "tus", "tus-creation-with-upload", "version", "experimental-dump-help", "generate-completion-script"],
        short: ["L", "h", "k", "r"]
    )

    /// The long and short names of `ferry send`'s options that take a value.
    public static let valuedOptions: (long: Set<String>, short: Set<Character>) = (
        long: ["cacert", "capath", "cert", "chunk-size", "concurrency", "field", "form-string", "key", "noproxy", "oauth2-bearer",
               "presigned-post", "profile", "proxy", "response-field", "retry", "retry-delay", "timeout", "url", "user"],
        short: ["F", "H", "X", "u", "x"]
    )
}
