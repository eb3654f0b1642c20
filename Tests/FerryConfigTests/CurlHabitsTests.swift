import FerryConfig
import Foundation
import Multipart
import TestSupport
import Testing
@testable import UploadModel
@testable import UploadProtocols

/// What curl users expect of a URL and of `-F`, without a network.
@Suite("curl's habits: URLs and -F parts")
struct CurlHabitsTests {
    @Test("a URL without a scheme is taken as http://, as curl does", arguments: [
        ("127.0.0.1:3000/upload", "http://127.0.0.1:3000/upload", "127.0.0.1", 3000),
        ("localhost/up", "http://localhost/up", "localhost", nil),
        ("example.test", "http://example.test", "example.test", nil),
    ] as [(String, String, String, Int?)])
    func schemeless(given: String, url: String, host: String, port: Int?) throws {
        let target = try UploadTarget(given)
        #expect(target.scheme == "http")
        #expect(target.url == url)
        #expect(target.host == host)
        #expect(target.port == port)
    }

    @Test("a scheme Ferry does not speak is still refused by name")
    func otherSchemes() {
        #expect(throws: UploadTargetError.unsupportedScheme("ftp", "ftp://h/x")) { try UploadTarget("ftp://h/x") }
    }

    @Test("user:password@ in the URL is sent as Basic (percent-decoded), unless a header sets Authorization")
    func credentialsInURL() throws {
        let target = try UploadTarget("http://al%40ce:s3c%3Aret@127.0.0.1:8080/up")
        #expect(target.basicCredentials == "al@ce:s3c:ret")
        #expect(target.requestTarget == "/up")
        #expect(target.hostHeader == "127.0.0.1:8080")
        let headers = try RequestHeaders.build(target: target, userHeaders: [], contentType: "x/y", contentLength: 1)
        let expected = "Basic " + Data("al@ce:s3c:ret".utf8).base64EncodedString()
        #expect(headers.filter { $0.name == "Authorization" }.map(\.value) == [expected])

        let explicit = HeaderField(name: "authorization", value: "Bearer t")
        let overridden = try RequestHeaders.build(target: target, userHeaders: [explicit], contentType: "x/y", contentLength: 1)
        #expect(overridden.filter { $0.name.lowercased() == "authorization" }.map(\.value) == ["Bearer t"])

        let userOnly = try UploadTarget("http://bob@h/")
        #expect(userOnly.basicCredentials == "bob:")
        #expect(try UploadTarget("http://h/").basicCredentials == nil)
    }

    @Test("-F parts go out in the order given: text, file, text-from-file, then the job's files")
    func partOrder() throws {
        let directory = TemporaryDirectory()
        let doc = directory.file("a.pdf", bytes: 4, fill: 0x44)
        let notes = try directory.write("b.txt", Array("from b".utf8))
        let photo = directory.file("photo.jpg", bytes: 3, fill: 0x50)
        let planner = UploadPlanner(
            url: "http://h/up",
            formArguments: try ["title=Trip", "doc=@\(doc)", "n=<\(notes)", "last=x"].map { try CurlFormArgument.parse($0) })
        let spec = UploadPlanner.jobs(for: [photo], bundle: false, template: try planner.template())[0]
        let names = FormBuilder().form(for: spec).parts.map(\.name)
        #expect(names == ["title", "doc", "n", "last", "file"])
        #expect(spec.extraFileParts.first?.size == 4)
    }

    @Test("file parts journaled before the order was kept still go after the text fields")
    func partOrderOfOlderJobs() {
        let spec = UploadJobSpec(url: "http://h/", textFields: [FormTextField(name: "a", value: "1")],
                                 extraFileParts: [ExtraFilePart(name: "f", path: "/x")], files: [])
        #expect(FormBuilder().form(for: spec).parts.map(\.name) == ["a", "f"])
    }

    @Test("-F file=@x with no FILE names the job after x and counts x's bytes")
    func extraFileAlone() throws {
        let directory = TemporaryDirectory()
        let data = directory.file("x.bin", bytes: 1_234)
        let planner = UploadPlanner(url: "http://h/up", formArguments: [try CurlFormArgument.parse("file=@\(data)")])
        let spec = UploadPlanner.jobs(for: [], bundle: false, template: try planner.template())[0]
        #expect(spec.namingPaths == [data])
        #expect(spec.estimatedBytes == 1_234)
    }
}
