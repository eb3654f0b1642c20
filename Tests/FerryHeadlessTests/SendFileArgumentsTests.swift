import FerryHeadless
import Foundation
import Testing
import TestSupport
import UploadModel

@Suite("ferry send's FILEs taken out before the parser")
struct SendFileArgumentsTests {
    @Test("the options that take a value are exactly those the parser describes (ferry send --experimental-dump-help)")
    func valuedOptionsMatchTheParser() throws {
        let process = Process()
        try FerryBinary.prepare(process, arguments: ["send", "--experimental-dump-help"])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        func names(ofKind kind: String) -> (long: Set<String>, short: Set<Character>) {
            var long: Set<String> = []
            var short: Set<Character> = []
            for argument in arguments where argument["kind"] as? String == kind {
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
        }
        let valued = names(ofKind: "option")
        #expect(!valued.long.isEmpty)
        #expect(SendFileArguments.valuedOptions.long == valued.long)
        #expect(SendFileArguments.valuedOptions.short == valued.short)
        let flags = names(ofKind: "flag")
        #expect(SendFileArguments.flags.long.subtracting(["experimental-dump-help", "generate-completion-script"]) == flags.long)
        #expect(SendFileArguments.flags.short == flags.short)
    }

    @Test("an unknown option is found wherever it stands, with the option meant when one is close")
    func unknownOption() throws {
        let typo = try #require(SendFileArguments.unknownOption(in: ["send", "a.txt", "--ulr", "http://h/", "b.txt"]))
        #expect(typo.option == "--ulr")
        #expect(typo.meant == "--url")
        #expect(SendFileArguments.unknownOption(in: ["send", "--retrys=2", "a"])?.meant == "--retry")
        #expect(SendFileArguments.unknownOption(in: ["send", "--zebra", "a"])?.meant == nil)
        #expect(SendFileArguments.unknownOption(in: ["send", "-Z", "a"])?.option == "-Z")
        // Values of valued options are skipped, whatever they look like; `--` ends the options.
        #expect(SendFileArguments.unknownOption(in: ["send", "-H", "--not-an-option: x", "--url", "http://h/", "-k", "--json",
                                                     "--retry=-1", "--", "--weird-file"]) == nil)
        #expect(SendFileArguments.unknownOption(in: ["ui", "--ulr"]) == nil)
    }

    @Test("options keep their values, FILEs are collected in order wherever they stand, and -- ends the options")
    func split() throws {
        let split = try #require(SendFileArguments([
            "send", "a.txt", "--url", "http://h/u", "-F", "x=1", "b.txt", "--json", "-H", "A: b", "--timeout", "5",
            "c.txt", "--", "--d.txt", "-e",
        ]))
        #expect(split.files == ["a.txt", "b.txt", "c.txt", "--d.txt", "-e"])
        #expect(split.parserArguments == [
            "send", "--url", "http://h/u", "-F", "x=1", "--json", "-H", "A: b", "--timeout", "5", "--", "a.txt",
        ])
        #expect(SendFileArguments(["send", "--url", "http://h/u"]) == nil)
        #expect(SendFileArguments(["serve", "a.txt"]) == nil)
    }

    @Test("a URL among the FILEs is moved to --url after send, wherever it stands; -- ends its place")
    func placingURL() throws {
        #expect(try SendFileArguments.placingURL(in: ["send", "-F", "file=@a.jpg", "https://h/up"])
            == ["send", "--url", "https://h/up", "-F", "file=@a.jpg"])
        #expect(try SendFileArguments.placingURL(in: ["send", "a.txt", "HTTP://h/up", "--json", "b.txt"])
            == ["send", "--url", "HTTP://h/up", "a.txt", "--json", "b.txt"])
        // Values of options stay theirs; a FILE after `--` stays a FILE; other commands are not touched.
        let untouched: [[String]] = [
            ["send", "-H", "http://not-a-url-but-a-value", "a.txt", "--url", "http://h/"],
            ["send", "--url", "http://h/", "--", "http://file"],
            ["send", "./http://file", "--url", "http://h/"],
            ["serve", "http://h/"],
            ["send", "a.txt"],
        ]
        for arguments in untouched {
            #expect(try SendFileArguments.placingURL(in: arguments) == arguments)
        }
        #expect(throws: SendURLArgumentError.twoURLs("http://a/", "https://b/")) {
            try SendFileArguments.placingURL(in: ["send", "http://a/", "x", "https://b/"])
        }
        #expect(throws: SendURLArgumentError.urlGivenTwice("http://b/")) {
            try SendFileArguments.placingURL(in: ["send", "--url=http://a/", "http://b/"])
        }
        #expect(throws: SendURLArgumentError.urlGivenTwice("http://b/")) {
            try SendFileArguments.placingURL(in: ["send", "http://b/", "--url", "http://a/"])
        }
    }

    @Test("an argument is a URL when it starts with http:// or https://, in any case")
    func urlArguments() {
        for url in ["http://h", "https://h/up", "HTTPS://H", "Http://h"] {
            #expect(UploadTarget.isURLArgument(url), "\(url)")
        }
        for path in ["http:/h", "./http://h", "httpx://h", "ftp://h", "http", "h.txt", "", "https:"] {
            #expect(!UploadTarget.isURLArgument(path), "\(path)")
        }
    }
}
