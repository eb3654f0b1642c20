import FerryApp
@testable import FerryRuntime
import Foundation
import SQLiteDatabase
import Testing
import UploadModel
import UploadJournal

@Suite("InterfaceStateStore")
struct InterfaceStateStoreTests {
    /// A fresh journal in a directory of its own, removed by `remove()`.
    private struct JournalPlace {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ferry-interface-state-\(UUID().uuidString)").path
        var journalPath: String { (directory as NSString).appendingPathComponent("state/journal.sqlite") }

        func remove() {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    private static func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o777)
    }

    @Test("the form and the pause are saved per key and read back after the journal is reopened")
    func savesAndLoadsPerKey() throws {
        let place = JournalPlace()
        defer { place.remove() }
        let journal = try UploadJournal(path: place.journalPath, client: .interface)
        let store = InterfaceStateStore(journal: journal)
        #expect(try store.value(FormSettings.self) == nil)
        let settings = FormSettings(url: "https://x.test/up", method: "PUT", parameters: [FormRow(name: "album", value: "a")],
                                    headers: [FormRow(name: "Authorization", value: "Bearer t")], remembersSecrets: true)
        try store.save(settings)
        try store.save(true, forKey: "paused")
        try journal.close()

        let reopened = InterfaceStateStore(journal: try UploadJournal(path: place.journalPath, client: .interface))
        #expect(try reopened.value(FormSettings.self) == settings)
        #expect(try reopened.value(Bool.self, forKey: "paused") == true)
        #expect(throws: UploadError.self) { try reopened.value(Int.self) }
    }

    @Test("the journal's file stays 0600 in its 0700 directory")
    func staysPrivate() throws {
        let place = JournalPlace()
        defer { place.remove() }
        let journal = try UploadJournal(path: place.journalPath, client: .interface)
        try InterfaceStateStore(journal: journal).save(FormSettings(url: "https://x.test/up"))
        #expect(Self.mode(place.journalPath) == 0o600)
        #expect(Self.mode(place.journalPath + "-wal") == 0o600)
        #expect(Self.mode((place.journalPath as NSString).deletingLastPathComponent) == 0o700)
    }

    @Test("a form an earlier Ferry saved in the journal is still read")
    func readsAFormSavedByTheJournal() throws {
        let place = JournalPlace()
        defer { place.remove() }
        let journal = try UploadJournal(path: place.journalPath, client: .interface)
        let saved = #"""
            {"url":"https://x.test/up","method":"POST","fileField":"file","mode":"perFile","concurrency":4,"retries":3,
             "parameters":[{"name":"album","value":"a"}],"headers":[{"name":"X-Note","value":"n"}]}
            """#
        let database = try SQLiteConnection(path: place.journalPath)
        try database.prepare("INSERT INTO form_state (key, value, updated_at) VALUES ('form', ?, 0)").execute([.blob(Data(saved.utf8))])
        try database.close()
        let settings = try InterfaceStateStore(journal: journal).value(FormSettings.self)
        #expect(settings == FormSettings(url: "https://x.test/up", parameters: [FormRow(name: "album", value: "a")],
                                         headers: [FormRow(name: "X-Note", value: "n")]))
    }

    @Test("the store uses the journal's own connection: once the journal is closed, saving fails")
    func usesTheJournalsConnection() throws {
        let place = JournalPlace()
        defer { place.remove() }
        let journal = try UploadJournal(path: place.journalPath, client: .interface)
        let store = InterfaceStateStore(journal: journal)
        try store.save(true, forKey: "paused")
        try journal.close()
        #expect(throws: UploadError.self) { try store.save(false, forKey: "paused") }
    }
}
