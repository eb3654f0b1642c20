import FerryApp
import Foundation
import Multipart
import TerminalUI
import Testing
import UploadModel

/// An endpoint that pauses: refused credentials ask for the header in the Form's masked editor,
/// and saving it sends the held uploads; a `Retry-After` counts down in the status line.
@Suite("App update: endpoint pauses")
struct EndpointPauseAppTests {
    static let endpoint = UploadEndpoint(url: "http://127.0.0.1:9/upload")!
    static let refused = AppMessage.uploadEventReceived(.endpointPaused(endpoint, EndpointPause(refusedCredentials: 401)))

    static func text(_ app: AppHarness) -> String {
        app.screen(width: 120, height: 24).lines().joined(separator: "\n")
    }

    @Test("refused credentials open the Form's Authorization header, emptied and masked; Enter sends the held uploads with it")
    func credentialsAsked() {
        var settings = AppUpdateTests.valid
        settings.headers = [FormRow(name: "X-Api-Key", value: "k"), FormRow(name: "Authorization", value: "Bearer old")]
        var app = AppHarness(directories: AppUpdateTests.tree, settings: settings, size: Size(width: 120, height: 24))
        app.type("jj u")
        app.send(Self.refused)
        #expect(app.state.focus == .form)
        #expect(app.state.form.editing?.field == .header(1))
        #expect(app.state.form.editing?.editor.text == "Authorization: ")
        #expect(Self.text(app).contains("http://127.0.0.1:9 needs credentials (401)"), "\(Self.text(app))")
        app.type("Bearer new")
        #expect(!Self.text(app).contains("Bearer new"), "the value is masked as it is typed")
        let commands = app.press(.enter)
        #expect(commands.contains(.resumeEndpoint(Self.endpoint, FormRow(name: "Authorization", value: "Bearer new"))), "\(commands)")
        #expect(app.state.form.settings.headers[1] == FormRow(name: "Authorization", value: "Bearer new"))
        app.send(.uploadEventReceived(.endpointResumed(Self.endpoint)))
        #expect(!Self.text(app).contains("needs credentials"))
    }

    @Test("a credential given at a 401 prompt goes only to that endpoint: not with the next URL of another origin, until typed anew")
    func credentialBoundToItsEndpoint() {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid, size: Size(width: 120, height: 24))
        app.send(Self.refused)
        app.type("Bearer for-9")
        _ = app.press(.enter)
        let header = FormRow(name: "Authorization", value: "Bearer for-9")
        #expect(app.state.form.settings.credentialEndpoints == ["authorization": "http://127.0.0.1:9"])
        #expect(app.state.form.displayText(of: .header(0)).hasSuffix("(only to http://127.0.0.1:9)"))
        app.state.form.settings.url = "http://127.0.0.1:9/other"
        #expect(app.state.form.request.headers == [header], "the same origin, another path: sent")
        app.state.form.settings.url = "https://other.test/upload"
        #expect(app.state.form.request.headers.isEmpty, "never to another origin")
        // Typed anew in the Form, the header is the user's for every URL.
        app.state.form.commit("Authorization: Bearer mine", to: .header(0))
        #expect(app.state.form.request.headers == [FormRow(name: "Authorization", value: "Bearer mine")])
    }

    @Test("without a secret header an Authorization row is offered, masked as typed; Esc drops it and the uploads stay held")
    func newHeaderOffered() {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid, size: Size(width: 120, height: 24))
        app.send(Self.refused)
        #expect(app.state.form.editing?.editor.text == "Authorization: ")
        #expect(app.state.form.isMasked(.header(0)))
        #expect(app.press(.escape).isEmpty)
        #expect(app.state.form.settings.headers.isEmpty)
        #expect(app.state.queue.endpointPauses[Self.endpoint]?.refusedCredentials == 401)
        #expect(Self.text(app).contains("needs credentials (401)"))
    }

    @Test("a pause that comes while the user types elsewhere leaves the editor alone; the notice says it")
    func editorLeftAlone() {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid, size: Size(width: 120, height: 24))
        app.type("2")
        app.press(.enter)
        let editing = app.state.form.editing
        #expect(editing?.field == .url)
        app.send(Self.refused)
        #expect(app.state.form.editing == editing)
        #expect(app.state.notice?.contains("refused the credentials (401)") == true)
    }

    @Test("a Retry-After pause counts down in the status line, and goes when the endpoint resumes")
    func countdown() {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid, size: Size(width: 120, height: 24))
        app.send(.clockTicked(SchedulerInstant(nanoseconds: 0)))
        let wait = EndpointPause.Wait(status: 429, delay: .seconds(5), until: SchedulerInstant(nanoseconds: 5_000_000_000))
        app.send(.uploadEventReceived(.endpointPaused(Self.endpoint, EndpointPause(wait: wait))))
        #expect(Self.text(app).contains("http://127.0.0.1:9 paused 5 s (429)"), "\(Self.text(app))")
        app.send(.clockTicked(SchedulerInstant(nanoseconds: 3_200_000_000)))
        #expect(Self.text(app).contains("http://127.0.0.1:9 paused 2 s (429)"), "\(Self.text(app))")
        app.send(.uploadEventReceived(.endpointResumed(Self.endpoint)))
        #expect(!Self.text(app).contains("paused"))
    }
}
