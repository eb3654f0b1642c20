import Dispatch
import Multipart
import Synchronization
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadEngine

/// A 401 is said as "refused the credentials" only when the request carried some; without any,
/// the endpoint "wants credentials".
@Suite("Credentials: refused, or wanted and none sent")
struct CredentialWordsTests {
    @Test("a spec carries credentials with a secret header or a URL's user:password, not without")
    func carriesCredentials() {
        #expect(!UploadJobSpec(url: "http://h/up", files: []).carriesCredentials)
        #expect(!UploadJobSpec(url: "http://h/up", headers: [HeaderField(name: "X-Trace", value: "1")], files: []).carriesCredentials)
        #expect(UploadJobSpec(url: "http://h/up", headers: [HeaderField(name: "Authorization", value: "Bearer t")], files: [])
            .carriesCredentials)
        #expect(UploadJobSpec(url: "http://h/up", headers: [HeaderField(name: "X-API-Key", value: "k")], files: []).carriesCredentials)
        #expect(UploadJobSpec(url: "http://user:pw@h/up", files: []).carriesCredentials)
    }

    @Test("the words name what happened")
    func words() throws {
        let endpoint = try #require(UploadEndpoint(url: "http://a.test/up"))
        #expect(EndpointPause(refusedCredentials: 401).credentialsText(for: endpoint) == "http://a.test refused the credentials (401)")
        #expect(EndpointPause(refusedCredentials: 401, credentialsSent: false).credentialsText(for: endpoint)
            == "http://a.test wants credentials (401) and none were sent")
        #expect(EndpointPause().credentialsText(for: endpoint) == nil)
    }

    @Test("the queue's pause after a 401 says whether the job sent credentials", arguments: [false, true])
    func pauseSaysWhetherSent(withHeader: Bool) throws {
        let harness = ManagerHarness(limit: 1)
        let pauses = Mutex<[EndpointPause]>([])
        let subscription = harness.manager.subscribe { batch in
            for case let .endpointPaused(_, pause) in batch { pauses.withLock { $0.append(pause) } }
        }
        var spec = Fixtures.spec(harness.directory.file("a.bin", bytes: 10))
        if withHeader { spec.headers = [HeaderField(name: "Authorization", value: "Bearer old")] }
        let id = try harness.manager.enqueue([spec])[0]
        harness.settle()
        harness.transport.respond(job: id, status: 401)
        harness.settle()
        let delivered = DispatchSemaphore(value: 0)
        harness.manager.root.async { delivered.signal() }
        delivered.wait()
        harness.settle()
        let pause = try #require(pauses.withLock { $0 }.first)
        #expect(pause.refusedCredentials == 401)
        #expect(pause.credentialsSent == withHeader)
        subscription.cancel()
    }
}
