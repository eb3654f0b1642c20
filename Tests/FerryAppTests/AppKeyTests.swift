import FerryApp
import Testing

@Suite("App update: keys")
struct AppKeyTests {
    @Test func escapeFollowedQuicklyByAKeyIsBothKeys() {
        var app = AppHarness(directories: AppUpdateTests.tree)
        app.type("?")
        let commands = app.send(.keyPressed(.alt(.character("q"))))
        #expect(!app.state.showsHelp)
        #expect(commands.last == .quit)
    }
}
