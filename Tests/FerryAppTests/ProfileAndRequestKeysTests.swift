import FerryApp
import Multipart
import TerminalUI
import Testing
import UploadModel

/// The Form's profile keys (`P` picks, `S` saves) and the request keys (`v` shows, `y` copies
/// as curl), in the model: what each key asks the runtime for, and what the answer shows.
@Suite("App update: profiles and the request")
struct ProfileAndRequestKeysTests {
    static let tree: [String: [BrowserEntry]] = ["/data": [file("a.txt"), file("b.txt")]]
    static let valid = FormSettings(url: "http://127.0.0.1:9/upload",
                                    headers: [FormRow(name: "Authorization", value: "Bearer abc")])

    static func photos() -> EndpointProfile {
        var profile = EndpointProfile(name: "photos")
        profile.url = "https://photos.example/up"
        profile.field = "image"
        profile.parameters = [FormTextField(name: "album", value: "2024")]
        profile.headers = [HeaderField(name: "X-Token", value: "t0k")]
        profile.concurrency = 2
        return profile
    }

    @Test("P asks for the profiles; Enter loads the highlighted one into the form; one that cannot be used says why")
    func pickAndLoad() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("2")
        #expect(app.type("P") == [.loadProfiles])
        let broken = ProfileChoice(written: EndpointProfile(name: "broken"),
                                   profile: .failure(.missingVariable("TOKEN", profile: "broken", key: "headers (X)")))
        var written = Self.photos()
        written.headers = [HeaderField(name: "X-Token", value: "${PHOTOS_TOKEN}")]
        app.send(.profilesLoaded([broken, ProfileChoice(written: written, profile: .success(Self.photos()))], file: "/c/profiles.toml"))
        #expect(app.state.inputMode == .profilePicker)
        let screen = app.screen(width: 140).lines().joined(separator: "\n")
        #expect(screen.contains("Profiles in /c/profiles.toml"))
        #expect(screen.contains("photos  https://photos.example/up"))
        #expect(screen.contains("TOKEN is not set"))
        app.press(.enter)
        #expect(app.state.notice?.contains("TOKEN is not set") == true)
        #expect(app.state.form.settings.url == Self.valid.url, "a profile that cannot be used is not loaded")
        app.type("j")
        let commands = app.press(.enter)
        #expect(app.state.profilePicker == nil)
        let settings = app.state.form.settings
        #expect(settings.url == "https://photos.example/up" && settings.fileField == "image" && settings.concurrency == 2)
        #expect(settings.parameters == [FormRow(name: "album", value: "2024")])
        #expect(settings.headers == [FormRow(name: "X-Token", value: "t0k")])
        #expect(settings.method == "POST", "what the profile leaves unset stays")
        #expect(commands.contains(.setConcurrency(2)))
        #expect(app.state.notice == "loaded profile photos")
        app.type("S")
        app.type("copy")
        guard case .saveProfile(let saved)? = app.press(.enter).first else {
            Issue.record("not saved")
            return
        }
        #expect(saved.headers == [HeaderField(name: "X-Token", value: "${PHOTOS_TOKEN}")],
                "a header still as loaded is saved with the reference it was loaded from")
        #expect(saved.name == "copy" && saved.url == "https://photos.example/up")
    }

    @Test("no profiles: a notice says where they would be and that S saves one")
    func noProfiles() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("2P")
        app.send(.profilesLoaded([], file: "/c/profiles.toml"))
        #expect(app.state.profilePicker == nil)
        #expect(app.state.notice == "no profiles in /c/profiles.toml: S saves the form as one")
    }

    @Test("S asks a name; Enter saves the form as that profile; the notice names the variables for its secrets")
    func saveAsProfile() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("2S")
        #expect(app.state.inputMode == .profileName)
        #expect(app.screen().lines().joined().contains("Save the form as a profile"))
        app.type("site")
        let commands = app.press(.enter)
        #expect(commands == [.saveProfile(Self.valid.profile(named: "site"))])
        #expect(app.state.profileNameEditor == nil)
        app.send(.profileSaved("site", file: "/c/profiles.toml", variables: ["SITE_AUTHORIZATION"]))
        #expect(app.state.notice == "saved profile site; set SITE_AUTHORIZATION (secrets are not written) in /c/profiles.toml")
        app.type("S")
        #expect(app.press(.escape).isEmpty)
        #expect(app.state.inputMode == .pane(.form))
    }

    @Test("v asks for the request of the form with the file under the cursor; its lines show until Esc")
    func viewRequest() throws {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("2")
        let commands = app.type("v")
        guard case let .previewRequest(spec, title)? = commands.first else {
            Issue.record("\(commands)")
            return
        }
        #expect(spec.files.map(\.path) == ["/data/a.txt"])
        #expect(spec.url == Self.valid.url && spec.headers == Self.valid.headers)
        #expect(title == "Request of the form with 1 file(s)")
        app.send(.requestPreviewed(title: title, lines: ["POST /upload HTTP/1.1", "Authorization: ********"]))
        #expect(app.state.inputMode == .requestView)
        #expect(app.screen().lines().contains { $0.contains("Authorization: ********") })
        app.press(.escape)
        #expect(app.state.requestView == nil)
    }

    @Test("y asks for the curl command (secrets as the Form shows them); the answer is copied and shown")
    func copyCurl() {
        var app = AppHarness(directories: Self.tree, settings: Self.valid)
        app.type("2")
        guard case let .makeCurlCommand(_, showsSecrets)? = app.type("y").first else {
            Issue.record("no curl command asked for")
            return
        }
        #expect(!showsSecrets)
        app.type("m")
        guard case .makeCurlCommand(_, true)? = app.type("y").first else {
            Issue.record("secrets shown in the Form are shown in the command")
            return
        }
        let line = "curl http://127.0.0.1:9/upload -H 'Authorization: ********'"
        #expect(app.send(.curlCommandMade(line)) == [.copyToClipboard(line)])
        #expect(app.state.requestView?.lines == [line])
        #expect(app.screen(width: 120).lines().contains { $0.contains(line) })
    }
}
