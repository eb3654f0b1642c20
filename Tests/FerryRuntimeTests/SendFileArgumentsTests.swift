import FerryRuntime
import Foundation
import Testing
import TestSupport

@Suite("ferry send's FILEs taken out before the parser")
struct SendFileArgumentsTests {
    @Test("the options that take a value are exactly those the parser describes (ferry send --experimental-dump-help)")
    func valuedOptionsMatchTheParser() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FerryBinary.requirePath())
        process.arguments = ["send", "--experimental-dump-help"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        var long: Set<String> = []
        var short: Set<Character> = []
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
        #expect(!long.isEmpty)
        #expect(SendFileArguments.valuedOptions.long == long)
        #expect(SendFileArguments.valuedOptions.short == short)
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
}
