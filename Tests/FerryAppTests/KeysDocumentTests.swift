@testable import FerryApp
import Foundation
import Testing

@Suite("Keys document")
struct KeysDocumentTests {
    static let beginMarker =
        "<!-- keys:begin (generated from KeyBindings; FERRY_UPDATE_DOCS=1 swift test --filter KeysDocumentTests rewrites it) -->"
    static let endMarker = "<!-- keys:end -->"
    static let regenerate = "FERRY_UPDATE_DOCS=1 swift test --filter KeysDocumentTests"

    /// `docs/manual.md`, three levels up from this file (the package root).
    static let manualPath: String = {
        let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        return (root + ["docs", "manual.md"]).joined(separator: "/")
    }()

    /// What the manual holds between its marker lines: a blank line, the tables, a blank line.
    static let expectedSection = "\n" + KeysDocument.markdown() + "\n"

    @Test("docs/manual.md's keys tables are the ones KeysDocument generates (FERRY_UPDATE_DOCS=1 rewrites them)")
    func manualKeysAreCurrent() throws {
        let manual = try String(contentsOfFile: Self.manualPath, encoding: .utf8)
        let begin = try #require(manual.range(of: Self.beginMarker + "\n"),
                                 "no line \(Self.beginMarker) in \(Self.manualPath)")
        let end = try #require(manual.range(of: Self.endMarker, range: begin.upperBound..<manual.endIndex),
                               "no line \(Self.endMarker) after the keys:begin line in \(Self.manualPath)")
        let section = String(manual[begin.upperBound..<end.lowerBound])
        if ProcessInfo.processInfo.environment["FERRY_UPDATE_DOCS"] == "1" {
            guard section != Self.expectedSection else { return }
            let rewritten = manual.replacingCharacters(in: begin.upperBound..<end.lowerBound,
                                                       with: Self.expectedSection)
            try rewritten.write(toFile: Self.manualPath, atomically: true, encoding: .utf8)
            return
        }
        #expect(section == Self.expectedSection,
                "docs/manual.md's keys tables are stale (KeyBindings changed): regenerate with \(Self.regenerate)")
    }

    @Test("every binding the help screen lists has its row in its section's table")
    func everyListedBindingIsDocumented() {
        let tables = KeysDocument.markdown().components(separatedBy: "### ").dropFirst()
        let tableByTitle = Dictionary(uniqueKeysWithValues: tables.map { table in
            (String(table.prefix { $0 != "\n" }), table)
        })
        for section in KeyHelpSection.all {
            let table = tableByTitle[section.title] ?? ""
            for binding in section.bindings {
                #expect(table.contains(KeysDocument.row(of: binding) + "\n"),
                        "\(binding.label) (\(binding.description)) is missing from the \(section.title) table of KeysDocument")
            }
        }
    }
}
