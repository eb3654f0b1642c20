import Foundation
import Receiver
import Testing
import JSON

/// `JSONReader` keeps members in order and reads what `JSONSerialization` reads; `JSONPointer`
/// follows RFC 6901.
@Suite("JSON reader and pointer")
struct JSONReaderTests {
    @Test("members keep the document's order; every kind of value is read")
    func order() throws {
        let value = try JSONReader.read(Array(#" {"z": 1, "a": [true, false, null, -0.5e+3], "m": {"y": "", "b": "x"}} "#.utf8))
        guard case let .object(members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["z", "a", "m"])
        #expect(value["z"] == .number("1"))
        #expect(value["a"] == .array([.bool(true), .bool(false), .null, .number("-0.5e+3")]))
        guard case let .object(inner)? = value["m"] else { Issue.record("m is not an object"); return }
        #expect(inner.map(\.key) == ["y", "b"])
    }

    @Test("string escapes, surrogate pairs and raw UTF-8 decode as JSONSerialization decodes them")
    func strings() throws {
        let text = #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\ud83d\ude00", "ü€😀"]"#
        let value = try JSONReader.read(Array(text.utf8))
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String])
        #expect(value == .array(foundation.map { .string($0) }))
    }

    @Test("what is not JSON is refused with the byte where reading stopped", arguments: [
        ("", 0), ("{", 1), (#"{"a" 1}"#, 5), ("[1,]", 3), ("01", 0), ("[1] x", 4), (#""\ud800""#, 7), ("\"a\nb\"", 2),
        ("tru", 0), (#"{"a":1,}"#, 7), ("1.", 2), (String(repeating: "[", count: 300), 256),
    ] as [(String, Int)])
    func refused(text: String, offset: Int) {
        #expect(throws: JSONReader.SyntaxError.self) { try JSONReader.read(Array(text.utf8)) }
        do {
            _ = try JSONReader.read(Array(text.utf8))
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
        }
    }

    @Test("a pointer walks objects and arrays; ~1 is / and ~0 is ~")
    func pointer() throws {
        let value = try JSONReader.read(Array(#"{"data": {"files": [{"url": "u0"}, {"url": "u1"}]}, "a/b": {"c~d": "x"}, "": "empty"}"#.utf8))
        #expect(value.value(at: try #require(JSONPointer("/data/files/1/url"))) == .string("u1"))
        #expect(value.value(at: try #require(JSONPointer("/a~1b/c~0d"))) == .string("x"))
        #expect(value.value(at: try #require(JSONPointer("/"))) == .string("empty"))
        #expect(value.value(at: try #require(JSONPointer(""))) == value)
        #expect(value.value(at: try #require(JSONPointer("/data/files/01/url"))) == nil)
        #expect(value.value(at: try #require(JSONPointer("/data/files/2"))) == nil)
        #expect(value.value(at: try #require(JSONPointer("/data/nope"))) == nil)
        #expect(JSONPointer("data") == nil)
        #expect(JSONPointer("/a~2") == nil)
        #expect(JSONPointer("/a~") == nil)
    }

    @Test("on 3,000 mutations of a document, it accepts what Foundation's JSONSerialization accepts (trailing commas aside), with the same values")
    func agreesWithFoundation() throws {
        let seed = Array(#"{"url": "https://b/", "fields": {"key": "a\u00e9\n", "n": [1, -2.5e3, true, null, {}], "s": "\"x\""}}"#.utf8)
        let alphabet = Array(#"{}[]",:.-+eE0123456789aeflnrstu\ "#.utf8)
        var random = SplitMix64(seed: 27)
        var accepted = 0
        for _ in 0..<3_000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: index)
                case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: index)
                default: bytes[index] = alphabet.randomElement(using: &random)!
                }
            }
            let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
            let ours = try? JSONReader.read(bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            // Foundation takes a comma before a closing bracket; RFC 8259 (and Python's json) do not, nor does Ferry.
            let trailingComma = text.range(of: #",\s*[\]}]"#, options: .regularExpression) != nil
            #expect((foundation != nil) == (ours != nil) || (ours == nil && trailingComma), "\(text)")
            if let foundation, let ours {
                accepted += 1
                #expect(Self.plain(ours) == foundation as? NSObject, "\(text)")
            }
        }
        #expect(accepted > 100, "the mutations must leave some documents valid")
    }

    /// A value as Foundation's types, to compare with what `JSONSerialization` returns.
    private static func plain(_ value: JSONValue) -> NSObject {
        switch value {
        case let .object(members): NSDictionary(dictionary: Dictionary(members.map { ($0.key, plain($0.value)) }) { _, last in last })
        case let .array(elements): NSArray(array: elements.map(plain))
        case let .string(text): NSString(string: text)
        case let .number(text): NSNumber(value: Double(text)!)
        case let .bool(value): NSNumber(value: value)
        case .null: NSNull()
        }
    }
}
