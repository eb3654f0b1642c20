import Multipart
import Testing

@Suite("Boundaries")
struct BoundaryTests {
    @Test("random boundaries hold ≥ 128 bits of letters, digits, - and _, are valid and differ")
    func random() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let boundary = Boundary.random()
            #expect(boundary.value.hasPrefix("ferry-"))
            let random = boundary.value.dropFirst("ferry-".count)
            #expect(random.count == 32)
            #expect(random.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            #expect(random.count * 6 >= 128)
            #expect(boundary.value.utf8.count <= 70)
            #expect(try Boundary(boundary.value) == boundary)
            seen.insert(boundary.value)
        }
        #expect(seen.count == 200)
    }

    @Test("each prepared body gets its own boundary unless one is injected")
    func perBody() throws {
        let encoder = MultipartEncoder()
        #expect(try encoder.prepare(MultipartForm()).boundary != encoder.prepare(MultipartForm()).boundary)
    }

    @Test("invalid injected boundaries are rejected", arguments: ["", String(repeating: "a", count: 71), "ends with space ", "semi;colon", "quote\"", "tab\t", "é"])
    func invalid(value: String) {
        #expect(throws: MultipartError.invalidBoundary(value)) { try Boundary(value) }
    }

    @Test("RFC 2046 punctuation and 70 characters are accepted")
    func valid() throws {
        _ = try Boundary("'()+_,-./:=? x")
        _ = try Boundary(String(repeating: "z", count: 70))
    }
}
