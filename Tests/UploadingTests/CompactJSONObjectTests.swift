import Foundation
import Testing
import Uploading

/// `CompactJSONObject` writes what a JSON reader reads back as the same values.
@Suite("CompactJSONObject")
struct CompactJSONObjectTests {
    @Test("strings with quotes, backslashes, control characters and non-ASCII read back as written")
    func escaping() throws {
        let values = ["plain", "a \"quoted\" word", #"back\slash"#, "line\nbreak\r\ttab", "\u{01}\u{1f}bell\u{07}",
                      "naïve 三 🚀", "", "ends with \\"]
        var object = CompactJSONObject()
        for (index, value) in values.enumerated() { object.add("k\(index)", value) }
        object.add("list", values)
        object.add("n", Int64(-42))
        object.add("u", UInt64.max)
        object.add("half", 0.5)
        object.add("whole", 3.0)
        object.add("absent", nil as String?)
        let text = object.finished
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        for (index, value) in values.enumerated() { #expect(read["k\(index)"] as? String == value) }
        #expect(read["list"] as? [String] == values)
        #expect((read["n"] as? NSNumber)?.int64Value == -42)
        #expect(read["half"] as? Double == 0.5)
        #expect(text.hasSuffix("\"whole\":3}"), "a whole number has no fraction: \(text)")
        #expect(read["absent"] == nil)
        #expect(text.contains(#""k4":"\u0001\u001fbell\u0007""#), "control characters as \\u00XX: \(text)")
        var quoted = "x="
        CompactJSONObject.appendQuoted("a\"b", to: &quoted)
        #expect(quoted == #"x="a\"b""#)
    }
}
