import FerryApp
import Foundation
import TerminalUI
import Testing
import UploadModel

/// Editing the Form's rows: parameters, headers, secrets, and what `u` does with a bad row.
@Suite("Editing the Form")
struct FormEditingTests {
    @Test("the Form: deleting the last parameter leaves the cursor on a parameter, not on + parameter")
    func deleteLastParameter() {
        var settings = AppUpdateTests.valid
        settings.parameters = [FormRow(name: "a", value: "1"), FormRow(name: "b", value: "2")]
        var app = AppHarness(directories: AppUpdateTests.tree, settings: settings)
        app.type("2")
        let fields = app.state.form.fields
        app.state.form.scroll.select(fields.firstIndex(of: .parameter(1))!)
        app.type("d")
        #expect(app.state.form.currentField == .parameter(0))
    }

    @Test("the Form refuses `noequals` as a parameter and `NoColon` as a header, saying why, and keeps the editor open")
    func malformedRowsAreRefused() {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid)
        app.type("2")
        app.state.form.scroll.select(app.state.form.fields.firstIndex(of: .newParameter)!)
        app.press(.enter)
        app.type("noequals")
        let commands = app.press(.enter)
        #expect(commands.isEmpty)
        #expect(app.state.form.editing != nil)
        #expect(app.state.notice?.contains("name=value") == true)
        app.type("=")
        app.press(.enter)
        #expect(app.state.form.settings.parameters == [FormRow(name: "noequals", value: "")])
        app.state.form.scroll.select(app.state.form.fields.firstIndex(of: .newHeader)!)
        app.press(.enter)
        app.type("NoColon")
        app.press(.enter)
        #expect(app.state.form.editing != nil)
        #expect(app.state.notice?.contains("Name: value") == true)
        app.press(.escape)
        #expect(app.state.form.settings.headers.isEmpty)
    }

    @Test("u with an invalid form row moves to that row in the Form")
    func invalidRowIsShown() {
        var settings = AppUpdateTests.valid
        settings.headers = [FormRow(name: "Bad Name", value: "x")]
        var app = AppHarness(directories: AppUpdateTests.tree, settings: settings)
        app.type("jj u")
        #expect(app.state.focus == .form)
        #expect(app.state.form.currentField == .header(0))
        #expect(app.state.notice != nil)
    }

    @Test("editing a secret header masks its value, not its name")
    func secretHeaderNameShows() {
        var settings = AppUpdateTests.valid
        settings.headers = [FormRow(name: "Authorization", value: "Bearer s3cret")]
        var app = AppHarness(directories: AppUpdateTests.tree, settings: settings)
        app.type("2")
        app.state.form.scroll.select(app.state.form.fields.firstIndex(of: .header(0))!)
        app.press(.enter)
        let row = app.screen(width: 100, height: 24).lines().first { $0.hasPrefix("Header") } ?? ""
        #expect(row.contains("Authorization:"), "\(row)")
        #expect(!row.contains("s3cret") && row.contains("•"), "\(row)")
    }
}
