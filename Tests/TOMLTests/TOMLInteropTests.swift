import Foundation
import Testing
import TOML

/// The reader against Python's standard `tomllib` (Python 3.11+): every document of
/// ``TOMLCorpus`` reads to the same values in both, and every document `tomllib` rejects the
/// reader rejects too.
@Suite("TOML against Python's tomllib")
struct TOMLInteropTests {
    /// Reads each document of a JSON array from standard input with `tomllib`; writes, for each,
    /// `{"ok": tagged}` (values tagged as toml-test tags them) or `{"error": message}`.
    static let script = """
        import datetime, json, sys, tomllib
        def tag(v):
            if isinstance(v, dict): return {k: tag(x) for k, x in v.items()}
            if isinstance(v, list): return [tag(x) for x in v]
            if isinstance(v, bool): return {"type": "bool", "value": "true" if v else "false"}
            if isinstance(v, int): return {"type": "integer", "value": str(v)}
            if isinstance(v, float): return {"type": "float", "value": repr(v)}
            if isinstance(v, str): return {"type": "string", "value": v}
            if isinstance(v, datetime.datetime):
                return {"type": "datetime" if v.tzinfo else "datetime-local", "value": v.isoformat()}
            if isinstance(v, datetime.date): return {"type": "date-local", "value": v.isoformat()}
            if isinstance(v, datetime.time): return {"type": "time-local", "value": v.isoformat()}
            raise TypeError(type(v))
        out = []
        for document in json.load(sys.stdin):
            try:
                out.append({"ok": tag(tomllib.loads(document))})
            except tomllib.TOMLDecodeError as error:
                out.append({"error": str(error)})
        json.dump(out, sys.stdout)
        """

    /// What `tomllib` makes of each document: the tagged root table, or its error message.
    static func tomllib(_ documents: [String]) throws -> [Result<Any, TOMLLibError>] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: documents))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 failed")
        let results = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return results.map { result in
            if let tagged = result["ok"] { return .success(tagged) }
            return .failure(TOMLLibError(message: result["error"] as? String ?? "?"))
        }
    }

    /// `tomllib`'s message for a document it rejects.
    struct TOMLLibError: Error {
        let message: String
    }

    @Test("every valid document reads to what tomllib reads")
    func validDocuments() throws {
        #expect(TOMLCorpus.valid.count >= 40)
        let theirs = try Self.tomllib(TOMLCorpus.valid.map(\.1))
        for ((name, text), expected) in zip(TOMLCorpus.valid, theirs) {
            guard case let .success(tagged) = expected else {
                Issue.record("\(name): tomllib rejects it: \(expected)")
                continue
            }
            do {
                let document = try TOMLDocument(parsing: text)
                if let difference = Self.difference(.table(document.root), tagged, at: "") {
                    Issue.record("\(name): \(difference)")
                }
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
    }

    @Test("every document tomllib rejects the reader rejects, with a line and a reason")
    func invalidDocuments() throws {
        let theirs = try Self.tomllib(TOMLCorpus.invalid.map(\.1))
        for ((name, text), expected) in zip(TOMLCorpus.invalid, theirs) {
            guard case .failure = expected else {
                Issue.record("\(name): tomllib reads it, so it does not belong in the invalid corpus")
                continue
            }
            do {
                let document = try TOMLDocument(parsing: text)
                Issue.record("\(name): read as \(document.root)")
            } catch {
                #expect(error.position.line >= 1 && error.position.column >= 1 && !error.reason.isEmpty, "\(name)")
            }
        }
    }

    @Test("the comparison notices a different value, kind or key")
    func comparisonNotices() {
        let tagged: [String: Any] = ["a": ["type": "integer", "value": "1"], "f": ["type": "float", "value": "nan"]]
        #expect(Self.difference(.table(TOMLTable([("a", .integer(1)), ("f", .float(.nan))])), tagged, at: "") == nil)
        #expect(Self.difference(.table(TOMLTable([("a", .integer(2)), ("f", .float(.nan))])), tagged, at: "") != nil)
        #expect(Self.difference(.table(TOMLTable([("a", .string("1")), ("f", .float(.nan))])), tagged, at: "") != nil)
        #expect(Self.difference(.table(TOMLTable([("a", .integer(1)), ("f", .float(1))])), tagged, at: "") != nil)
        #expect(Self.difference(.table(TOMLTable([("b", .integer(1)), ("f", .float(.nan))])), tagged, at: "") != nil)
    }

    /// Where a value differs from `tomllib`'s tagged value, or nil when they are the same.
    /// Floats compare as numbers; date-times by kind and date.
    static func difference(_ mine: TOMLValue, _ theirs: Any, at path: String) -> String? {
        switch mine {
        case let .table(table):
            guard let dictionary = theirs as? [String: Any], dictionary["type"] as? String == nil || table["type"] != nil else {
                return "\(path): a table here, \(theirs) in tomllib"
            }
            guard Set(table.keys) == Set(dictionary.keys) else { return "\(path): keys \(table.keys), tomllib \(dictionary.keys.sorted())" }
            for key in table.keys {
                if let difference = difference(table[key]!, dictionary[key]!, at: path + "." + key) { return difference }
            }
            return nil
        case let .array(values):
            guard let array = theirs as? [Any], array.count == values.count else { return "\(path): \(values), tomllib \(theirs)" }
            for (number, (value, other)) in zip(values, array).enumerated() {
                if let difference = difference(value, other, at: "\(path)[\(number)]") { return difference }
            }
            return nil
        default:
            guard let tagged = theirs as? [String: String], let type = tagged["type"], let value = tagged["value"] else {
                return "\(path): \(mine), tomllib \(theirs)"
            }
            let same = switch mine {
            case let .string(text): type == "string" && value == text
            case let .integer(number): type == "integer" && value == String(number)
            case let .float(number): type == "float" && (number.isNaN ? value == "nan" : Double(value) == number)
            case let .boolean(flag): type == "bool" && value == String(flag)
            case let .offsetDateTime(text): type == "datetime" && value.prefix(10) == text.prefix(10)
            case let .localDateTime(text): type == "datetime-local" && value.prefix(10) == text.prefix(10)
            case let .localDate(text): type == "date-local" && value == text
            case let .localTime(text): type == "time-local" && value.prefix(8) == text.prefix(8)
            case .array, .table: false
            }
            return same ? nil : "\(path): \(mine), tomllib \(type) \(value)"
        }
    }
}
