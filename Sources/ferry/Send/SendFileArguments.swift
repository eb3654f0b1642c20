import ArgumentParser
import Foundation

/// Takes `ferry send`'s FILE arguments out of the argument list before swift-argument-parser
/// sees them: it merges the input positions of a repeated positional value by value, which is
/// quadratic (20,000 paths took 6.4 s, 100,000 would take minutes). The parser gets the options
/// and the first FILE (so its checks see files); `Ferry.main` puts the whole list back.
///
/// Which options take a value is read from the parser's own description of `Send`
/// (`_dumpHelp()`), so a new option needs no change here.
struct SendFileArguments {
    /// The arguments for the parser: every option with its value, then `--` and the first FILE.
    let parserArguments: [String]
    /// Every FILE, in order.
    let files: [String]

    /// Splits `ferry`'s arguments (without the program name) when they run `send`.
    ///
    /// - Parameter arguments: The arguments.
    /// - Returns: The split, or nil when the arguments are not `send …` with FILEs.
    init?(_ arguments: [String]) {
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
            } else if token.hasPrefix("-"), token.count > 1 {
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

    /// The long and short names of `Send`'s options that take a value.
    private static let valuedOptions: (long: Set<String>, short: Set<Character>) = {
        var long: Set<String> = []
        var short: Set<Character> = []
        let help = Data(Send._dumpHelp().utf8)
        guard let root = try? JSONSerialization.jsonObject(with: help) as? [String: Any],
              let command = root["command"] as? [String: Any],
              let arguments = command["arguments"] as? [[String: Any]] else { return (long, short) }
        for argument in arguments where argument["kind"] as? String == "option" {
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let text = name["name"] as? String else { continue }
                if name["kind"] as? String == "short", let letter = text.first {
                    short.insert(letter)
                } else {
                    long.insert(text)
                }
            }
        }
        return (long, short)
    }()
}
