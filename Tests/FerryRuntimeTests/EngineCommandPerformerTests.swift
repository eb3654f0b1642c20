import FerryApp
import FerryConfig
import FerryRuntime
import Foundation
import Multipart
import Testing
import TestSupport
import UploadModel
import UploadEngine
import UploadJournal

@Suite("The engine command performer")
struct EngineCommandPerformerTests {
    @Test("a succeeded job's details come back from the journal once the engine has dropped them")
    func succeededJobDetailsFromTheJournal() async throws {
        let folder = TemporaryDirectory()
        let journal = try UploadJournal(path: folder.path("journal.sqlite"), client: .interface)
        defer { try? journal.close() }
        let transport = FakeTransport(replies: [.respond(status: 201, body: Array("stored".utf8))])
        let manager = UploadManager(configuration: FormSettings().queueConfiguration(journaled: true),
                                    transport: transport, journal: journal)
        let performer = EngineCommandPerformer(manager: manager, journal: journal)
        let spec = UploadJobSpec(url: "http://127.0.0.1:9/upload", files: [QueuedFile.capture(path: folder.file("a.txt"))])
        let id = try manager.enqueue(spec)
        _ = await manager.waitUntilIdle()
        #expect(manager.job(id)?.state == .succeeded)
        #expect(manager.job(id)?.response == nil, "the engine keeps no response of a succeeded job when it has a journal")

        let answer = performer.perform(.loadJobDetails(id))
        guard case .jobDetailsLoaded(let job)? = answer.first, answer.count == 1 else {
            Issue.record("expected the job's details, got \(answer)")
            return
        }
        #expect(job.id == id)
        #expect(job.state == .succeeded)
        #expect(job.response?.status == 201)
        #expect(job.response?.bodyText == "stored")
        #expect(job.attemptHistory.map(\.outcome) == [.succeeded])
        let gone = UploadJobID(id.rawValue + 1)
        #expect(performer.perform(.loadJobDetails(gone)) == [.jobDetailsUnavailable(gone, reason: "the job is no longer queued")],
                "a job that is gone has no details, and the view is told so")

        #expect(try journal.deleteFinishedJobs() == 1)
        #expect(performer.perform(.loadJobDetails(id)) == [.jobDetailsUnavailable(id, reason: "the journal no longer holds this job")],
                "details the journal no longer holds are not waited for")
    }

    @Test("without a journal the engine keeps a succeeded job's details and answers with them")
    func succeededJobDetailsWithoutAJournal() async throws {
        let folder = TemporaryDirectory()
        let transport = FakeTransport(replies: [.respond(status: 200, body: Array("fine".utf8))])
        let manager = UploadManager(configuration: FormSettings().queueConfiguration(journaled: false), transport: transport)
        let performer = EngineCommandPerformer(manager: manager, journal: nil)
        let id = try manager.enqueue(UploadJobSpec(url: "http://127.0.0.1:9/upload",
                                                   files: [QueuedFile.capture(path: folder.file("a.txt"))]))
        _ = await manager.waitUntilIdle()
        guard case .jobDetailsLoaded(let job)? = performer.perform(.loadJobDetails(id)).first else {
            Issue.record("expected the job's details")
            return
        }
        #expect(job.response?.bodyText == "fine")
        #expect(job.attemptHistory.count == 1)
    }

    @Test("profiles: read and expanded from the environment (a missing variable named), saved without the secret")
    func profiles() throws {
        let folder = TemporaryDirectory()
        let store = ProfileStore(path: folder.path("profiles.toml"))
        let performer = EngineCommandPerformer(manager: UploadManager(transport: FakeTransport()), journal: nil, profiles: store,
                                               environment: ["TOKEN": "t0k"])
        var site = EndpointProfile(name: "site")
        site.headers = [HeaderField(name: "Authorization", value: "Bearer secret-value")]
        #expect(performer.perform(.saveProfile(site)) == [.profileSaved("site", file: store.path, variables: ["SITE_AUTHORIZATION"])])
        #expect(try !String(contentsOfFile: store.path, encoding: .utf8).contains("secret-value"))
        var other = EndpointProfile(name: "other")
        other.headers = [HeaderField(name: "X-Token", value: "${TOKEN}")]
        _ = performer.perform(.saveProfile(other))
        guard case let .profilesLoaded(choices, file)? = performer.perform(.loadProfiles).first else {
            Issue.record("no profiles loaded")
            return
        }
        #expect(file == store.path)
        #expect(choices.map(\.name) == ["other", "site"])
        #expect((try? choices[0].profile.get())?.headers == [HeaderField(name: "X-Token", value: "t0k")])
        #expect(choices[1].profile == .failure(.missingVariable("SITE_AUTHORIZATION", profile: "site", key: "headers (Authorization)")))
    }
}
