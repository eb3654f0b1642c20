import Foundation
@testable import Receiver
import Testing

@Suite("A token on every route")
struct AccessTests {
    static let token = "s3cret-Tok3n"

    @Test("anything but loopback needs a token or --no-auth; loopback does not")
    func networkNeedsToken() throws {
        for host in ["0.0.0.0", "::", "192.168.1.20", "example.com", "fe80::1"] {
            let error = #expect(throws: ReceiverError.self) { try ReceiverConfiguration(host: host).validate() }
            #expect(error == .invalidConfiguration(reason: .tokenRequired(host: host)))
            #expect(error?.description.contains("--token") == true)
            #expect(throws: Never.self) { try ReceiverConfiguration(host: host, access: .token("t")).validate() }
            #expect(throws: Never.self) {
                try ReceiverConfiguration(host: host, allowsUnauthenticatedNetworkAccess: true).validate()
            }
            #expect(ReceiverConfiguration(host: host, allowsUnauthenticatedNetworkAccess: true).isOpenToNetwork)
        }
        for host in ["127.0.0.1", "127.1.2.3", "::1", "localhost", "::ffff:127.0.0.1"] {
            #expect(throws: Never.self) { try ReceiverConfiguration(host: host).validate() }
            #expect(!ReceiverConfiguration(host: host).isOpenToNetwork)
        }
        for bad in ["", "two words", "tab\there", "line\n"] {
            let error = #expect(throws: ReceiverError.self) { try ReceiverConfiguration(access: .token(bad)).validate() }
            #expect(error?.description.contains("token") == true)
        }
    }

    @Test("Bearer and Basic (any user, the token as password) pass; others do not")
    func check() {
        let check = AccessCheck(token: Self.token)
        func basic(_ text: String) -> String { "Basic " + Data(text.utf8).base64EncodedString() }
        #expect(check.allows(authorization: "Bearer \(Self.token)"))
        #expect(check.allows(authorization: "bearer \(Self.token)"))
        #expect(check.allows(authorization: basic("anyone:\(Self.token)")))
        #expect(check.allows(authorization: basic(":\(Self.token)")))
        #expect(!check.allows(authorization: nil))
        #expect(!check.allows(authorization: ""))
        #expect(!check.allows(authorization: "Bearer"))
        #expect(!check.allows(authorization: "Bearer \(Self.token)x"))
        #expect(!check.allows(authorization: "Bearer \(Self.token.dropLast())"))
        #expect(!check.allows(authorization: "Token \(Self.token)"))
        #expect(!check.allows(authorization: basic("\(Self.token):wrong")))
        #expect(!check.allows(authorization: basic(Self.token)))
        #expect(!check.allows(authorization: "Basic !!!notbase64"))
    }

    @Test("every route answers 401 with WWW-Authenticate without the token, and serves with it")
    func everyRoute() async throws {
        try await ReceiverHarness.run(configure: { $0.access = .token(Self.token) }) { harness in
            let path = try harness.directory.writeSource("a", Array("hello".utf8))
            let upload = ["-F", Curl.fileField("f", path: path, filename: "a.txt"), harness.url + "/upload"]
            let routes: [[String]] = [
                [harness.url + "/"], [harness.url + "/uploads"], [harness.url + "/no-such-route"],
                ["-X", "DELETE", harness.url + "/uploads"], upload,
                ["-F", "x=1", harness.url + "/multiupload"], ["-F", "x=1", harness.url + "/upload/deep/path"],
            ]
            let refused: [(String, [String])] = [
                ("missing", []), ("wrong Bearer", ["-H", "Authorization: Bearer nope"]),
                ("wrong Basic", ["-u", "me:nope"]), ("token as user", ["-u", "\(Self.token):"]),
            ]
            for route in routes {
                for (what, credentials) in refused {
                    let result = try await Curl.run(["-i"] + credentials + route)
                    #expect(result.status == 401, "\(what) \(route): \(result.body)")
                    #expect(result.body.lowercased().contains("www-authenticate: bearer realm=\"ferry serve\""), "\(result.body)")
                    #expect(result.body.lowercased().contains("www-authenticate: basic realm=\"ferry serve\""), "\(result.body)")
                    #expect(result.body.contains("Authorization: Bearer"), "the body says what to send: \(result.body)")
                }
            }
            #expect(try harness.directory.uploadedNames() == [], "nothing stored without the token")
            #expect(harness.server.receivedUploads.isEmpty)

            let bearer = try await Curl.run(["--oauth2-bearer", Self.token] + upload)
            #expect(bearer.status == 200, "\(bearer.body)")
            let basic = try await Curl.run(["-u", "phone:\(Self.token)"] + upload)
            #expect(basic.status == 200, "\(basic.body)")
            #expect(try harness.directory.uploadedNames().sorted() == ["a-1.txt", "a.txt"])
            let listing = try await Curl.run(["-H", "Authorization: Bearer \(Self.token)", harness.url + "/uploads"])
            #expect(listing.status == 200)
            #expect(listing.body.contains("a-1.txt"))
            let home = try await Curl.run(["-u", "x:\(Self.token)", harness.url + "/"])
            #expect(home.status == 200 && home.body.contains("curl -F"))
            let missing = try await Curl.run(["-u", "x:\(Self.token)", harness.url + "/no-such-route"])
            #expect(missing.status == 404)

            let refusedLog = try #require(await harness.logs.waitFor { $0.status == 401 && $0.path == "/upload" })
            #expect(refusedLog.error?.contains("token") == true)
        }
    }

    @Test("a refused upload gets no 100 Continue and its body is not read")
    func noContinueWithoutToken() async throws {
        try await ReceiverHarness.run(configure: { $0.access = .token(Self.token) }) { harness in
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send(RawMultipart.head(length: 50_000_000, extraHeaders: ["Expect: 100-continue"]))
            let response = try #require(try await connection.readResponse())
            #expect(response.status == 401)
            #expect(try await connection.waitForClose(timeout: 5).closed)
        }
    }
}
