import FerryApp
import Foundation
import TerminalUI
import Testing
import TextFormat

@Suite("Help screen")
struct HelpScreenTests {
    static let headings = ["Everywhere", "Moving in lists", "Files", "Form", "Queue"]

    /// The help screen's lines at a size, trailing spaces dropped.
    static func helpLines(width: Int, height: Int, keys: String = "") -> [String] {
        var app = AppHarness(directories: AppUpdateTests.tree, size: Size(width: width, height: height))
        app.type("?" + keys)
        return app.screen(width: width, height: height).lines().map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// The column (display offset) where each heading starts, and the columns of the rows below it.
    static func columnStarts(of heading: String, in lines: [String]) -> (heading: Int, rows: [Int])? {
        for (row, line) in lines.enumerated() {
            guard let range = line.range(of: " \(heading) ") ?? line.range(of: "│\(heading) ") else { continue }
            let x = DisplayWidth.of(String(line[..<range.lowerBound])) + 1
            var rows: [Int] = []
            for below in lines[(row + 1)...] {
                let chars = Array(below)
                guard x < chars.count, chars[x] != " ", chars[x] != "│", chars[x] != "└" else { break }
                rows.append(x)
            }
            return (x, rows)
        }
        return nil
    }

    @Test("at 120×40 every section starts a column with its heading, and no key is listed twice or cut")
    func sectionsAreWholeAt120x40() {
        let lines = Self.helpLines(width: 120, height: 40)
        let text = lines.joined(separator: "\n")
        for heading in Self.headings {
            #expect(Self.columnStarts(of: heading, in: lines) != nil, "no heading \(heading) in\n\(text)")
        }
        #expect(!text.contains("…"), "truncated:\n\(text)")
        #expect(!text.contains("less concurrency"), "- is listed under +/-:\n\(text)")
        #expect(text.contains("+/-"))
        // The Queue section's rows sit under its heading: `d remove`, `D remove failed jobs` and
        // `x clear done` included.
        let queueRows = lines.filter { $0.contains("clear done") || $0.contains(" remove") }
        #expect(queueRows.count == 3, "\(text)")
        if let queue = Self.columnStarts(of: "Queue", in: lines) {
            #expect(queue.rows.count >= 9, "the Queue section is split:\n\(text)")
        }
    }

    @Test("at 40×12 the help scrolls to its last line and back")
    func scrollsAtTheMinimumSize() {
        let top = Self.helpLines(width: 40, height: 12)
        #expect(top.joined().contains("Everywhere"))
        #expect(!top.joined().contains("delete a word"))
        let bottom = Self.helpLines(width: 40, height: 12, keys: "G")
        #expect(bottom.joined().contains("delete a word"), "\(bottom.joined(separator: "\n"))")
        #expect(!bottom.joined().contains("Everywhere"))
        let back = Self.helpLines(width: 40, height: 12, keys: "Gg")
        #expect(back.joined().contains("Everywhere"))
        let down = Self.helpLines(width: 40, height: 12, keys: "jj")
        #expect(down != top, "j scrolls")
    }
}
