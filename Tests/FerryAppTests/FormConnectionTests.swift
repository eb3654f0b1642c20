import FerryApp
import TerminalUI
import Testing
import UploadModel

/// The form's connection rows (proxy, redirects, TLS trust, client certificate): what they
/// show, what Enter does, that queued jobs carry them, and that the proxy's password is saved
/// only when secrets are remembered.
@Suite("The form's connection rows")
struct FormConnectionTests {
    private static let tree: [String: [BrowserEntry]] = ["/data": [file("a.txt"), file("b.txt")]]

    /// A harness with the form focused and the cursor on `field`.
    private static func formAt(_ field: FormField, settings: FormSettings = FormSettings(url: "https://example.com/up")) -> AppHarness {
        var app = AppHarness(directories: tree, settings: settings)
        app.type("2")
        while app.state.form.currentField != field { app.press(.down) }
        return app
    }

    @Test("every connection row is in the form, after the headers, and an empty one says what having none means")
    func rowsAndTheirEmptyMeaning() {
        let app = Self.formAt(.proxy)
        #expect(Array(app.state.form.fields.suffix(10)) == FormField.connectionRows)
        #expect(app.state.form.displayText(of: .proxy) == "none (http://host:port to use one)")
        #expect(app.state.form.displayText(of: .certificateAuthorityFile) == "the system's authorities")
        #expect(app.state.form.displayText(of: .verifiesCertificates) == "certificates verified")
        #expect(app.state.form.displayText(of: .followsRedirects) == "not followed")
        #expect(app.state.form.displayText(of: .offersHTTP2) == "HTTP/1.1 only")
        #expect(app.state.form.displayText(of: .resumesUploads) == "files over 64 KiB: a cut upload goes on where the server can (--resumable)",
                "on by default")
    }

    @Test("trust and client certificate typed into the form go with every job queued afterwards")
    func trustGoesWithTheJobs() {
        var app = Self.formAt(.certificateAuthorityFile)
        app.press(.enter)
        app.type("/etc/ferry/ca.pem")
        app.press(.enter)
        while app.state.form.currentField != .clientCertificate { app.press(.down) }
        app.press(.enter)
        app.type("/etc/ferry/me.pem")
        app.press(.enter)
        app.press(.down)
        app.press(.enter)
        app.type("/etc/ferry/me.key")
        app.press(.enter)
        app.type("1au")
        let specs = app.engine.jobs.values.map(\.spec)
        #expect(specs.count == 2)
        for spec in specs {
            #expect(spec.connection.certificateAuthorityFile == "/etc/ferry/ca.pem")
            #expect(spec.connection.clientCertificateFile == "/etc/ferry/me.pem")
            #expect(spec.connection.clientKeyFile == "/etc/ferry/me.key")
            #expect(spec.connection.verifiesCertificates)
        }
    }

    @Test("Enter switches Redirects, HTTP/2, Resume and TLS verification; the screen says when certificates are not verified")
    func switches() {
        var app = Self.formAt(.followsRedirects)
        app.press(.enter)
        #expect(app.state.form.settings.connection.followsRedirects)
        #expect(app.state.form.displayText(of: .followsRedirects) == "307 and 308 followed (-L)")
        app.press(.down)
        app.press(.enter)
        #expect(app.state.form.settings.connection.offersHTTP2)
        #expect(app.screen(width: 80, height: 40).lines().joined(separator: "\n").contains("HTTP/2 when the server offers it"))
        app.type("1au")
        #expect(!app.engine.jobs.isEmpty && app.engine.jobs.values.allSatisfy { $0.spec.connection.offersHTTP2 })
        app.type("2")
        while app.state.form.currentField != .resumesUploads { app.press(.down) }
        app.press(.enter)
        #expect(!app.state.form.settings.connection.resumesUploads)
        #expect(app.screen(width: 80, height: 40).lines().joined(separator: "\n").contains("Resume"))
        #expect(app.state.form.displayText(of: .resumesUploads) == "off")
        let before = Set(app.engine.jobs.keys)
        app.type("1au")
        let queued = app.engine.jobs.filter { !before.contains($0.key) }.values
        #expect(!queued.isEmpty && queued.allSatisfy { !$0.spec.connection.resumesUploads })
        app.type("2")
        while app.state.form.currentField != .verifiesCertificates { app.press(.down) }
        app.press(.enter)
        #expect(!app.state.form.settings.connection.verifiesCertificates)
        #expect(app.screen(width: 80, height: 40).lines().joined(separator: "\n").contains("NOT verified (--insecure)"))
        app.press(.enter)
        #expect(app.state.form.settings.connection.verifiesCertificates)
    }

    @Test("the proxy row sets the proxy for http and https, masks its password, and the password is saved only when remembered")
    func proxyRow() {
        var app = Self.formAt(.proxy)
        app.press(.enter)
        app.type("http://ann:s3cret@proxy.example:3128")
        app.press(.enter)
        #expect(app.state.form.settings.connection.httpProxy == "http://ann:s3cret@proxy.example:3128")
        #expect(app.state.form.settings.connection.httpsProxy == "http://ann:s3cret@proxy.example:3128")
        #expect(app.state.form.displayText(of: .proxy) == "http://ann:\(FormState.secretMask)@proxy.example:3128")
        #expect(!app.screen(width: 80, height: 40).lines().joined(separator: "\n").contains("s3cret"))
        app.press(.down)
        app.press(.enter)
        app.type("localhost, .internal")
        app.press(.enter)
        #expect(app.state.form.settings.connection.noProxy == ["localhost", ".internal"])
        #expect(app.state.form.settings.savable.connection.httpsProxy == "http://ann@proxy.example:3128")
        var remembered = app.state.form.settings
        remembered.remembersSecrets = true
        #expect(remembered.savable.connection.httpsProxy == "http://ann:s3cret@proxy.example:3128")
    }

    @Test("a proxy other than http:// is flagged in the form")
    func onlyHTTPProxies() {
        var app = Self.formAt(.proxy)
        app.press(.enter)
        app.type("socks5://proxy:1080")
        app.press(.enter)
        #expect(app.state.form.error(of: .proxy) == "only http:// proxies")
        #expect(app.state.form.blockingReason == "Proxy: only http:// proxies")
    }

    @Test("the status line says when uploads go through a proxy, and not when the host is in No proxy")
    func statusLineShowsTheProxy() {
        var settings = FormSettings(url: "https://uploads.example.com/up")
        settings.connection.httpsProxy = "http://ann:s3cret@proxy.example:3128"
        let app = AppHarness(directories: Self.tree, settings: settings)
        let status = app.screen(width: 120, height: 20).lines()[18]
        #expect(status.contains("→ https://uploads.example.com/up via proxy proxy.example:3128"), "\(status)")
        #expect(!status.contains("s3cret"))

        settings.connection.noProxy = ["example.com"]
        let direct = AppHarness(directories: Self.tree, settings: settings)
        #expect(!direct.screen(width: 120, height: 20).lines()[18].contains("via proxy"))
    }
}
