import FerryApp
import FileSystem
import Foundation
import TerminalUI
import Testing
import TestSupport
import TextFormat
import UploadModel

@Suite("App view")
struct AppViewTests {
    static let names: [BrowserEntry] = [
        file("日本語メモ.txt", size: 46),
        file("🚀 launch notes.txt", size: 43),
        file("cafe\u{301} menu.md", size: 259),
        file(DisplayWidth.displayable(bytes: [0x62, 0x61, 0x64, 0xFF, 0x2E, 0x62, 0x69, 0x6E]), size: 2048),
        folder("photos"),
        BrowserEntry(name: "dangling", path: "/data/dangling", kind: .brokenSymlink, isSymlink: true),
    ]

    @Test func filesPaneAtTheMinimumSizeLaysOutWideNamesByWidth() {
        var app = AppHarness(directories: ["/data": Self.names], size: Size(width: 40, height: 12))
        app.type("jj ")
        expectLines(app.screen(width: 40, height: 12), [
            " 1 Files   2 Form   3 Queue        ferry",
            "/data                          sort:name",
            "  photos/",
            "  bad\\xFF.bin                    2.0 KiB",
            "✓ café menu.md                     259 B",
            "  dangling → [broken link]",
            "  日本語メモ.txt                    46 B",
            "  🚀 launch notes.txt               43 B",
            "",
            "",
            " → no U…rm) sel 1 (259 B) │ queue empty ",
            "l/→ open  h/← up  ? help  q quit",
        ])
    }

    @Test func belowTheMinimumSizeSaysSo() {
        let app = AppHarness(directories: ["/data": Self.names])
        expectLines(app.screen(width: 39, height: 11), [
            "", "", "", "",
            "          Terminal too small",
            "        need 40x12, have 39x11",
            "", "", "", "", "",
        ])
        expectLines(app.screen(width: 12, height: 1), ["Too small: …"])
        #expect(app.screen(width: 0, height: 0).lines().isEmpty)
    }

    @Test func formShowsErrorsInlineAndMasksSecrets() {
        var settings = FormSettings(url: "ftp://example.com/up")
        settings.parameters = [FormRow(name: "note", value: "hi")]
        settings.headers = [FormRow(name: "Authorization", value: "Bearer abc"), FormRow(name: "X-Trace", value: "1")]
        var app = AppHarness(directories: ["/data": []], settings: settings, size: Size(width: 60, height: 14))
        app.type("2")
        expectLines(app.screen(width: 60, height: 14), [
            " 1 Files   2 Form   3 Queue                            ferry",
            "URL          ftp://example.com/up  ✗ ftp://example.com/up: f",
            "Method       POST",
            "File field   file",
            "Mode         one request per file",
            "Protocol     multipart/form-data",
            "Concurrency  4",
            "Retries      3",
            "Secrets      forgotten on quit (Authorization, tokens, proxy",
            "Param        note=hi",
            "+ parameter  n or Enter adds a parameter (key=value)",
            "Header       Authorization: ••••••••",
            " → ftp://example.com/up           sel 0 (0 B) │ queue empty ",
            "Enter edit  n add row  d delete  ? help  q quit",
        ])
    }

    @Test func queueRowsShowStateProgressAndFailures() {
        var app = AppHarness(directories: ["/data": []], size: Size(width: 80, height: 12))
        let spec = { (name: String) in
            UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: "/d/" + name, size: 1000, modificationTimeNanoseconds: 0)])
        }
        let uploading = UploadJob(id: 1, spec: spec("half.bin"), state: .uploading,
                                  progress: UploadProgress(bytesSent: 500, totalBytes: 1000, bytesPerSecond: 2048,
                                                           estimatedTimeRemaining: .seconds(3)),
                                  attempts: 1)
        let failed = UploadJob(id: 2, spec: spec("bad.bin"), state: .failed, attempts: 1,
                               lastError: .serverRejected(status: 500, retryAfter: nil),
                               response: UploadResponse(status: 500, body: Array("boom\nmore".utf8)))
        let done = UploadJob(id: 3, spec: spec("ok.bin"), state: .succeeded, attempts: 2)
        let queued = UploadJob(id: 4, spec: spec("wait 日本.bin"))
        for job in [uploading, failed, done, queued] { app.send(.uploadEventReceived(.queued(job))) }
        app.type("3")
        let lines = app.screen(width: 80, height: 12).lines()
        #expect(lines[1].hasPrefix("  Name"))
        #expect(lines[2].hasPrefix("↑ half.bin"))
        #expect(lines[2].contains(" 50% "))
        #expect(lines[2].contains("2.0 KiB/s"))
        #expect(lines[2].hasSuffix("#1"))
        #expect(lines[3].hasPrefix("✗ bad.bin"))
        #expect(lines[3].contains("HTTP 500 boom"))
        #expect(lines[4].contains("100% "))
        #expect(lines[4].contains("done"))
        #expect(lines[5].hasPrefix("· wait 日本.bin"))
        #expect(lines[5].contains("queued"))
        #expect(lines[10].contains("queued 1 active 1/4 done 1 failed 1"))
    }

    @Test("overall progress is what was sent of all the files' bytes: a failed job counts as not sent (everything failed is not 100 %), a folder counts nothing, a running one its share")
    func overallProgressIsFinishedWork() {
        var app = AppHarness(directories: ["/data": []], size: Size(width: 80, height: 12))
        let spec = { (name: String) in
            UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: "/d/" + name, size: 1000, modificationTimeNanoseconds: 0)])
        }
        let sent = UploadProgress(bytesSent: 1000, totalBytes: 1000)
        let failed = UploadJob(id: 1, spec: spec("bad.bin"), state: .failed, progress: sent, attempts: 1,
                               lastError: .serverRejected(status: 500, retryAfter: nil))
        let done = UploadJob(id: 2, spec: spec("ok.bin"), state: .succeeded, progress: sent, attempts: 1)
        for job in [failed, done] { app.send(.uploadEventReceived(.queued(job))) }
        var status = app.screen(width: 80, height: 12).lines()[10]
        #expect(status.contains("done 1 failed 1 │ 50%"), "everything finished, half of it sent: \(status)")
        // A folder queued by mistake fails with no bytes: it moves nothing. A running job counts
        // the share of its request sent, in file bytes (the request adds the form's framing).
        let folder = UploadJob(id: 3, spec: UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: "/d/sub", size: nil, modificationTimeNanoseconds: nil)]),
                               state: .failed, attempts: 1, lastError: .recorded(description: "is a directory"))
        let running = UploadJob(id: 4, spec: spec("big.bin"), state: .uploading,
                                progress: UploadProgress(bytesSent: 600, totalBytes: 1200), attempts: 1)
        let waiting = UploadJob(id: 5, spec: spec("next.bin"))
        for job in [folder, running, waiting] { app.send(.uploadEventReceived(.queued(job))) }
        status = app.screen(width: 80, height: 12).lines()[10]
        #expect(status.contains("│ 37%"), "1,500 of 4,000 file bytes sent: \(status)")
    }

    @Test func namesThatAreNotUTF8ShowTheirBytesEscapedInTheQueueAndDetails() {
        var app = AppHarness(directories: ["/data": []], size: Size(width: 80, height: 12))
        let path = "/d\u{EFFF}/caf\u{EFE9}.txt"  // as FileSystemName decodes "/d" FF "/caf" E9 ".txt"
        let spec = UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: path, size: 5, modificationTimeNanoseconds: 0)])
        app.send(.uploadEventReceived(.queued(UploadJob(id: 1, spec: spec))))
        app.type("3")
        #expect(app.screen(width: 80, height: 12).lines()[2].hasPrefix("· caf\\xE9.txt "))
        app.press(.enter)
        let text = app.screen(width: 80, height: 12).lines().joined(separator: "\n")
        #expect(text.contains("File: /d\\xFF/caf\\xE9.txt (5 B)"))
        #expect(text.contains("filename=\"caf\\xE9.txt\""))
        #expect(!text.unicodeScalars.contains { (0xEF80...0xEFFF).contains($0.value) })
    }

    @Test func tenThousandJobsRenderOnlyTheVisibleRows() {
        var app = AppHarness(directories: ["/data": []], size: Size(width: 120, height: 40))
        for index in 1...10_000 {
            let spec = UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: "/d/f\(index)", size: 10, modificationTimeNanoseconds: 0)])
            app.send(.uploadEventReceived(.queued(UploadJob(id: UploadJobID(Int64(index)), spec: spec))))
        }
        app.type("3G")
        let lines = app.screen(width: 120, height: 40).lines()
        #expect(lines[37].hasPrefix("· f10000 "))
        #expect(lines[38].contains("queued 10000"))
    }

    @Test func helpBarGreysDisabledKeysAndTheQuitDialogIsCentred() {
        var app = AppHarness(directories: ["/data": [file("a")]], settings: FormSettings(url: "http://h/u"))
        app.type(" u")
        app.type("q")
        let text = app.screen().lines().joined(separator: "\n")
        #expect(text.contains("Quit?"))
        #expect(text.contains("y: quit"))
    }
}
