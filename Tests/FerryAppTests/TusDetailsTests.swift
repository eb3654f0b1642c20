import FerryApp
import FileSystem
import Foundation
import Multipart
import TerminalUI
import Testing
import UploadModel

@Suite("A tus job's details")
struct TusDetailsTests {
    @Test("the details show the upload URL, the confirmed bytes and the offset history")
    func uploadURLAndNotes() {
        let file = FileSnapshot(path: "/d/big.iso", stamp: FileStamp(size: 1000, modificationTimeNanoseconds: 1, identity: FileIdentity(device: 1, inode: 1)))
        let checkpoint = TusCheckpoint(uploadURL: "http://h/files/ab", offset: 610, file: file, notes: [
            .created(url: "http://h/files/ab"), .resumed(offset: 610, length: 1000),
        ])
        let job = UploadJob(id: 1, spec: UploadJobSpec(url: "http://h/files/", files: [QueuedFile(path: "/d/big.iso", size: 1000,
                                                                                               modificationTimeNanoseconds: 1)],
                                                       tus: TusJobOptions()),
                            state: .failed, attempts: 2, tus: checkpoint)
        let details = QueueRowTests.details(of: job, size: Size(width: 100, height: 30))
        #expect(details.contains { $0.contains("tus upload: http://h/files/ab · 610 B of 1000 B confirmed") }, "\(details)")
        #expect(details.contains { $0.contains("· upload created at http://h/files/ab") }, "\(details)")
        #expect(details.contains { $0.contains("· resumed at 61 % (byte 610 of 1000)") }, "\(details)")
        #expect(details.contains { $0.contains("Request: tus, created at http://h/files/") && $0.contains("in chunks from 4") },
                "\(details)")
        #expect(!details.contains { $0.contains("Content-Disposition") }, "a tus job sends no multipart part: \(details)")
    }
}

@Suite("The form's Protocol row")
struct TusProtocolRowTests {
    @Test("Enter on Protocol switches multipart ↔ tus; tus jobs are one per file, whatever Mode says, and the setting round-trips")
    func protocolRow() throws {
        var state = AppState(directory: "/data", settings: FormSettings(url: "http://h/files/", mode: .bundle), homeDirectory: "/",
                             size: Size(width: 100, height: 30), timeZone: TimeZone(identifier: "UTC")!)
        #expect(state.form.text(of: .uploadProtocol) == "multipart/form-data")
        state.form.scroll.select(try #require(state.form.fields.firstIndex(of: .uploadProtocol)))
        state.focus = .form
        _ = state.update(.keyPressed(.key(.enter)))
        #expect(state.form.settings.usesTus)
        #expect(state.form.text(of: .uploadProtocol) == "tus (resumable, one upload per file)")
        let files = [QueuedFile(path: "/d/a", size: 1, modificationTimeNanoseconds: 1), QueuedFile(path: "/d/b", size: 1, modificationTimeNanoseconds: 1)]
        let specs = state.form.jobSpecs(for: files)
        #expect(specs.count == 2 && specs.allSatisfy { $0.tus == TusJobOptions() })
        let saved = try JSONDecoder().decode(FormSettings.self, from: JSONEncoder().encode(state.form.settings))
        #expect(saved.usesTus)
        let old = try JSONDecoder().decode(FormSettings.self, from: Data("""
            {"url":"u","method":"POST","fileField":"file","mode":"perFile","concurrency":4,"retries":3,"parameters":[],"headers":[]}
            """.utf8))
        #expect(!old.usesTus)
    }
}
