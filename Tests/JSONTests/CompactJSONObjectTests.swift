import Foundation
import Testing
import JSON

/// `CompactJSONObject` writes what a JSON reader reads back as the same values.
@Suite("CompactJSONObject")
struct CompactJSONObjectTests {
    @Test("strings with quotes, backslashes, control characters and non-ASCII read back as written")
    func escaping() throws {
        let values = ["plain", "a \"quoted\" word", #"back\slash"#, "line\nbreak\r\ttab", "\u{01}\u{1f}bell\u{07}",
                      "naïve 三 🚀", "", "ends with \\"]
        // Member names are literals in Ferry's code (`StaticString`), written as they are.
        let keys: [StaticString] = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"]
        var object = CompactJSONObject()
        for (key, value) in zip(keys, values) { object.add(key, value) }
        object.add("list", values)
        object.add("n", Int64(-42))
        object.add("zero", Int64(0))
        object.add("min", Int64.min)
        object.add("max", Int64.max)
        object.add("u", UInt64.max)
        object.add("half", 0.5)
        object.add("minusSeven", -7.0)
        object.add("whole", 3.0)
        object.add("absent", nil as String?)
        let text = object.finished
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        for (index, value) in values.enumerated() { #expect(read["k\(index)"] as? String == value) }
        #expect(read["list"] as? [String] == values)
        #expect((read["n"] as? NSNumber)?.int64Value == -42)
        #expect((read["zero"] as? NSNumber)?.int64Value == 0)
        #expect((read["min"] as? NSNumber)?.int64Value == Int64.min)
        #expect((read["max"] as? NSNumber)?.int64Value == Int64.max)
        #expect(text.contains(#""u":18446744073709551615,"#), "\(text)")
        #expect(text.contains(#""minusSeven":-7,"#), "\(text)")
        #expect(read["half"] as? Double == 0.5)
        #expect(text.hasSuffix("\"whole\":3}"), "a whole number has no fraction: \(text)")
        #expect(read["absent"] == nil)
        #expect(text.contains(#""k4":"\u0001\u001fbell\u0007""#), "control characters as \\u00XX: \(text)")
        var quoted = "x="
        CompactJSONObject.appendQuoted("a\"b", to: &quoted)
        #expect(quoted == #"x="a\"b""#)
    }
}
