import Multipart
import Testing
import JSON
import UploadModel

/// `ResponseLink`: the link a JSON answer gives to what was uploaded.
@Suite("response links")
struct ResponseLinkTests {
    @Test("a JSON answer's link: url, link or location at the top, or where a pointer says; nothing from other bodies")
    func links() throws {
        func response(_ body: String, type: String? = "application/json; charset=utf-8") -> UploadResponse {
            UploadResponse(status: 200, headers: type.map { [HeaderField(name: "Content-Type", value: $0)] } ?? [], body: Array(body.utf8))
        }
        #expect(ResponseLink.find(in: response(#"{"id": 1, "location": "/f/1", "link": "https://l/1"}"#)) == "https://l/1")
        #expect(ResponseLink.find(in: response(#"{"url": "", "location": "/f/1"}"#, type: nil)) == "/f/1")
        #expect(ResponseLink.find(in: response(#"{"data": {"url": "https://d/1"}}"#, type: "application/vnd.api+json"),
                                  at: JSONPointer("/data/url")) == "https://d/1")
        #expect(ResponseLink.find(in: response(#"{"data": {"url": 5}}"#), at: JSONPointer("/data/url")) == nil)
        #expect(ResponseLink.find(in: response(#"{"url": "https://u"}"#, type: "text/html")) == nil)
        #expect(ResponseLink.find(in: response("not json")) == nil)
        #expect(ResponseLink.find(in: response(#"[{"url": "https://u"}]"#)) == nil)
    }
}
