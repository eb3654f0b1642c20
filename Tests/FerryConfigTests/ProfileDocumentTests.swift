import FerryConfig
import Foundation
import Multipart
import Testing
import TestSupport
import UploadModel

/// `profiles.toml`: read, written and checked with the `TOML` module; secrets never written.
@Suite("Endpoint profiles (profiles.toml)")
struct ProfileDocumentTests {
    static let sample = """
        [profiles.photos]
        url = "https://example.com/upload"
        method = "put"
        field = "image"
        protocol = "multipart"
        parameters = ["album=2024", "note=a=b"]
        headers = ["Authorization: Bearer ${PHOTOS_TOKEN}", "X-Trace: 1"]
        concurrency = 2
        retry = 5
        timeout = 12
        insecure = true
        location = true
        resumable = true

        [profiles.resumable]
        url = "http://127.0.0.1:3000/files/"
        protocol = "tus"
        """

    @Test("every key is read; names sorted; parameters and headers keep their order")
    func reads() throws {
        let profiles = try ProfileDocument.parse(Self.sample, file: "p.toml")
        #expect(profiles.map(\.name) == ["photos", "resumable"])
        let photos = profiles[0]
        #expect(photos.url == "https://example.com/upload")
        #expect(photos.method == "PUT")
        #expect(photos.field == "image")
        #expect(photos.usesTus == false)
        #expect(photos.parameters == [FormTextField(name: "album", value: "2024"), FormTextField(name: "note", value: "a=b")])
        #expect(photos.headers.map(\.name) == ["Authorization", "X-Trace"])
        #expect(photos.headers[0].value == "Bearer ${PHOTOS_TOKEN}", "expanded only when used")
        #expect(photos.concurrency == 2 && photos.retries == 5 && photos.timeout == 12)
        #expect(photos.insecure == true && photos.followsRedirects == true && photos.offersHTTP2 == nil)
        #expect(photos.resumesUploads == true)
        #expect(profiles[1].usesTus == true && profiles[1].headers.isEmpty && profiles[1].resumesUploads == nil)
    }

    @Test("what is written reads back as the same profiles")
    func roundTrip() throws {
        let profiles = try ProfileDocument.parse(Self.sample, file: "p.toml")
        let text = ProfileDocument.render(profiles)
        #expect(try ProfileDocument.parse(text, file: "again.toml") == profiles)
    }

    @Test("a secret header, a URL's and a proxy's password are written as ${NAME}, never as they are")
    func secretsNeverWritten() throws {
        var profile = EndpointProfile(name: "my site")
        profile.url = "https://user:hunter2@example.com/up"
        profile.proxy = "http://p:proxypass@127.0.0.1:8888"
        profile.headers = [HeaderField(name: "Authorization", value: "Bearer abc123"),
                           HeaderField(name: "X-Api-Key", value: "k-999"),
                           HeaderField(name: "Cookie", value: "${MY_COOKIE}"),
                           HeaderField(name: "Accept", value: "text/plain")]
        let text = ProfileDocument.render([profile])
        for secret in ["abc123", "k-999", "hunter2", "proxypass"] {
            #expect(!text.contains(secret), "\(secret) written in \(text)")
        }
        let read = try #require(try ProfileDocument.parse(text, file: "p.toml").first)
        #expect(read.headers.map(\.value) == ["${MY_SITE_AUTHORIZATION}", "${MY_SITE_X_API_KEY}", "${MY_COOKIE}", "text/plain"])
        #expect(read.url == "https://user:${MY_SITE_URL_PASSWORD}@example.com/up")
        #expect(profile.withoutSecrets().variables == ["MY_SITE_AUTHORIZATION", "MY_SITE_X_API_KEY", "MY_SITE_URL_PASSWORD",
                                                       "MY_SITE_PROXY_PASSWORD"])
        let environment = ["MY_SITE_AUTHORIZATION": "Bearer abc123", "MY_SITE_X_API_KEY": "k-999", "MY_COOKIE": "c=1",
                           "MY_SITE_URL_PASSWORD": "hunter2", "MY_SITE_PROXY_PASSWORD": "proxypass"]
        let used = try read.expanded(environment: environment)
        #expect(used.headers.map(\.value) == ["Bearer abc123", "k-999", "c=1", "text/plain"])
        #expect(used.url == profile.url && used.proxy == profile.proxy)
    }

    @Test("${NAME} is replaced from the environment; a missing variable is named with its profile and key")
    func expansion() throws {
        var profile = EndpointProfile(name: "photos")
        profile.headers = [HeaderField(name: "Authorization", value: "Bearer ${TOKEN}"), HeaderField(name: "X-Price", value: "$5")]
        #expect(try profile.expanded(environment: ["TOKEN": "t0k"]).headers.map(\.value) == ["Bearer t0k", "$5"])
        #expect(throws: ProfileError.missingVariable("TOKEN", profile: "photos", key: "headers (Authorization)")) {
            try profile.expanded(environment: [:])
        }
        let message = ProfileError.missingVariable("TOKEN", profile: "photos", key: "headers (Authorization)").description
        #expect(message.contains("TOKEN") && message.contains("photos"))
        profile.headers = [HeaderField(name: "X-A", value: "${UNCLOSED")]
        #expect(throws: ProfileError.self) { try profile.expanded(environment: [:]) }
    }

    @Test("a syntax error names the file, line and column")
    func syntaxError() {
        let text = "[profiles.a]\nurl = \"http://x/\"\nretry = = 3\n"
        do {
            _ = try ProfileDocument.parse(text, file: "/home/u/.config/ferry/profiles.toml")
            Issue.record("parsed")
        } catch {
            guard case let .syntax(file, line, _, _) = error else { Issue.record("\(error)"); return }
            #expect(file == "/home/u/.config/ferry/profiles.toml")
            #expect(line == 3)
            #expect(error.description.hasPrefix("/home/u/.config/ferry/profiles.toml:3:"), "\(error.description)")
        }
    }

    @Test("a wrong type, an unknown key or an unusable value names the file and line, the profile and the key",
          arguments: [
              ("[profiles.a]\nconcurrency = \"4\"\n", ProfileError.wrongType(file: "f:2", profile: "a", key: "concurrency", expected: "an integer")),
              ("[profiles.a]\nheaders = \"X: 1\"\n", .wrongType(file: "f:2", profile: "a", key: "headers", expected: "an array of strings")),
              ("[profiles.a]\nurll = \"http://x/\"\n", .unknownKey(file: "f:2", profile: "a", key: "urll")),
              ("[other]\nx = 1\n", .unknownKey(file: "f:1", profile: nil, key: "other")),
              ("profiles = 3\n", .wrongType(file: "f:1", profile: nil, key: "profiles", expected: "a table ([profiles.NAME])")),
              ("[profiles.a]\nprotocol = \"ftp\"\n",
               .unusableValue(file: "f:2", profile: "a", key: "protocol", reason: "'ftp' is neither \"multipart\" nor \"tus\"")),
              ("[profiles.a]\nheaders = [\"Content-Length: 3\"]\n",
               .unusableValue(file: "f:2", profile: "a", key: "headers",
                              reason: "'Content-Length': header Content-Length is set by Ferry from the body and cannot be given")),
              ("[profiles.a]\nretry = -1\n", .unusableValue(file: "f:2", profile: "a", key: "retry", reason: "must be 0 or more")),
              ("# mine\n[profiles.b]\nurl = \"http://b/\"\n\n[profiles.a]\nurl = \"http://a/\"\n  retry   = \"x\"\n",
               .wrongType(file: "f:7", profile: "a", key: "retry", expected: "an integer")),
              ("[profiles.a]\nsub.retry = 1\n", .unknownKey(file: "f:2", profile: "a", key: "sub")),
              ("[profiles]\nb.url = \"http://b/\"\na = { url = \"http://a/\",\n  retry = 1 }\n",
               .syntax(file: "f", line: 3, column: 25, detail: "an inline table must be on one line (TOML 1.0)")),
              ("[profiles]\nb.url = \"http://b/\"\na = { url = \"http://a/\", retry = \"x\" }\n",
               .wrongType(file: "f:3", profile: "a", key: "retry", expected: "an integer")),
              ("[profiles]\na = 1\n", .wrongType(file: "f:2", profile: nil, key: "profiles.a", expected: "a table ([profiles.a])")),
          ])
    func validation(text: String, expected: ProfileError) {
        #expect(throws: expected) { try ProfileDocument.parse(text, file: "f") }
        if case let .wrongType(file, _, _, _) = expected, file.hasPrefix("f:") {
            #expect(expected.description.hasPrefix("\(file): "), "\(expected.description)")
        }
    }

    static let commented = """
        # My profiles
        [profiles.b]   # the second
        url = "http://b/"   # kept as written
        retry = 3

        # about a
        [profiles.a]
        url = "http://a/"
        """

    @Test("saving replaces the profile's own section and keeps the other profiles' text and the comments")
    func savingReplaces() throws {
        var b = EndpointProfile(name: "b")
        b.url = "http://b2/"
        b.headers = [HeaderField(name: "Authorization", value: "Bearer secret")]
        let saved = try ProfileDocument.saving(b, in: Self.commented, file: "f")
        #expect(saved == """
            # My profiles
            [profiles.b]
            url = "http://b2/"
            headers = [ "Authorization: ${B_AUTHORIZATION}" ]

            # about a
            [profiles.a]
            url = "http://a/"
            """)
        #expect(try ProfileDocument.parse(saved, file: "f").map(\.url) == ["http://a/", "http://b2/"])
    }

    @Test("saving a new profile adds its section after the last line, the rest as it is")
    func savingAdds() throws {
        var c = EndpointProfile(name: "my site")
        c.concurrency = 2
        let saved = try ProfileDocument.saving(c, in: Self.commented, file: "f")
        #expect(saved == Self.commented + "\n\n[profiles.\"my site\"]\nconcurrency = 2\n")
        #expect(try ProfileDocument.saving(c, in: "", file: "f") == "[profiles.\"my site\"]\nconcurrency = 2\n")
    }

    @Test("a profile written as an inline table or with dotted keys is saved by writing the document anew")
    func savingRewrites() throws {
        var a = EndpointProfile(name: "a")
        a.url = "http://a2/"
        for text in ["profiles = { a = { url = \"http://a/\" }, b = { retry = 1 } } # inline\n",
                     "[profiles]\na.url = \"http://a/\"\nb.retry = 1\n"] {
            let saved = try ProfileDocument.saving(a, in: text, file: "f")
            #expect(saved == "[profiles.a]\nurl = \"http://a2/\"\n\n[profiles.b]\nretry = 1\n")
        }
        #expect(throws: ProfileError.unknownKey(file: "f:1", profile: nil, key: "x")) {
            try ProfileDocument.saving(a, in: "x = 1\n", file: "f")
        }
    }

    @Test("the store: the XDG path, no file is no profiles, save adds and replaces with mode 0600, a missing name lists those there")
    func store() throws {
        #expect(ProfileStore(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]).path == "/c/ferry/profiles.toml")
        #expect(ProfileStore(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]).path == "/h/.config/ferry/profiles.toml")
        let dir = TemporaryDirectory()
        let store = ProfileStore(environment: ["XDG_CONFIG_HOME": dir.path("config")])
        #expect(try store.load().isEmpty)
        var first = EndpointProfile(name: "b")
        first.url = "http://127.0.0.1/one"
        first.headers = [HeaderField(name: "Authorization", value: "Bearer secret-value")]
        #expect(try store.save(first) == ["B_AUTHORIZATION"])
        var second = EndpointProfile(name: "a")
        second.concurrency = 3
        try store.save(second)
        first.url = "http://127.0.0.1/two"
        try store.save(first)
        #expect(try store.load().map(\.name) == ["a", "b"])
        #expect(try store.profile(named: "b").url == "http://127.0.0.1/two")
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(!text.contains("secret-value"))
        let mode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: ProfileError.notFound(profile: "c", file: store.path, available: ["a", "b"])) {
            try store.profile(named: "c")
        }
    }
}
