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
        let (longValued, shortValued) = Self.valuedOptions
        var options = ["send"]
        var files: [String] = []
        var index = 1
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            // Most tokens are FILEs: one look at the first byte tells them from options.
            guard token.utf8.first == UInt8(ascii: "-") else {
                files.append(token)
                continue
            }
            if token == "--" {
                files += arguments[index...]
                break
            }
            if token.hasPrefix("--") {
                options.append(token)
                if longValued.contains(String(token.dropFirst(2))), index < arguments.count {
                    options.append(arguments[index])
                    index += 1
                }
            } else if token.count > 1 {
                options.append(token)
                if token.count == 2, shortValued.contains(token.last!), index < arguments.count {
                    options.append(arguments[index])
                    index += 1
                }
            } else {
                files.append(token)
            }
        }
        guard let first = files.first else { return nil }
        parserArguments = options + ["--", first]
        self.files = files
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
        var index = 1
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            guard token.utf8.first == UInt8(ascii: "-"), token.count > 1 else { continue }
            if token == "--" { return nil }
            if token.hasPrefix("--") {
                let name = String(token.dropFirst(2).prefix { $0 != "=" })
                guard long.contains(name) else {
                    let meant = long.map { ($0, EditDistance.between(name, $0)) }.filter { $0.1 <= max(2, name.count / 3) }
                        .min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
                    return ("--" + name, meant.map { "--" + $0.0 })
                }
                if valuedOptions.long.contains(name), !token.contains("=") { index += 1 }
            } else if token.count == 2, let letter = token.last {
                guard short.contains(letter) else { return (token, nil) }
                if valuedOptions.short.contains(letter) { index += 1 }
            }
        }
        return nil
    }

    /// The long and short names of `ferry send`'s flags (options without a value), with the
    /// parser's own `--help`, `--version` and its hidden `--experimental-dump-help` and
    /// `--generate-completion-script`.
    public static let flags: (long: Set<String>, short: Set<Character>) = (
        long: ["bundle", "dry-run", "help", "hidden", "http1.1", "http2", "insecure", "json", "location", "no-bundle", "no-checksum",
               "no-insecure", "no-location", "no-resumable", "no-tus", "print-curl",
               "recursive", "resumable", "resume", "show-secrets", "tus", "version", "experimental-dump-help", "generate-completion-script"],
        short: ["L", "h", "k", "r"]
    )

    /// The long and short names of `ferry send`'s options that take a value.
    public static let valuedOptions: (long: Set<String>, short: Set<Character>) = (
        long: ["cacert", "capath", "cert", "chunk-size", "concurrency", "field", "form-string", "key", "noproxy", "oauth2-bearer",
               "presigned-post", "profile", "proxy", "response-field", "retry", "timeout", "url", "user"],
        short: ["F", "H", "X", "u", "x"]
    )
}
