import FerryApp
import Multipart
import TerminalUI
import Testing
import UploadModel

@Suite("A resumable request's details")
struct ResumedDetailsTests {
    @Test("the details say where a --resumable request went on after each lost connection")
    func resumedAt() {
        var response = UploadResponse(status: 201, body: Array("{\"stored\":1000}".utf8))
        response.resumedAt = [400, 610]
        let spec = UploadJobSpec(url: "http://h/upload", files: [QueuedFile(path: "/d/big.iso", size: 1000, modificationTimeNanoseconds: 1)],
                                 connection: ConnectionOptions(resumesUploads: true))
        let job = UploadJob(id: 1, spec: spec, state: .succeeded, progress: UploadProgress(bytesSent: 1000, totalBytes: 1000),
                            attempts: 1, response: response)
        let details = QueueRowTests.details(of: job, size: Size(width: 120, height: 30))
        #expect(details.contains { $0.contains("Response: 201") }, "\(details)")
        #expect(details.contains { $0.contains("· resumed at 40 % (400 B of 1000 B kept by the server)") }, "\(details)")
        #expect(details.contains { $0.contains("· resumed at 61 % (610 B of 1000 B kept by the server)") }, "\(details)")
    }
}
