import FerryApp
import TerminalUI
import UploadModel

/// Jobs and an interface showing them, for tests of the Queue pane and the status line.
enum AppFixtures {
    /// A job spec for one 1,000-byte file named `name` under `/d/`.
    static func spec(_ name: String, url: String = "http://127.0.0.1:9/upload", size: Int64 = 1000) -> UploadJobSpec {
        UploadJobSpec(url: url, files: [QueuedFile(path: "/d/" + name, size: size, modificationTimeNanoseconds: 0)])
    }

    /// The interface with these jobs queued, the Queue pane focused.
    static func app(_ jobs: [UploadJob], size: Size = Size(width: 100, height: 24)) -> AppHarness {
        var app = AppHarness(directories: AppUpdateTests.tree, settings: AppUpdateTests.valid, size: size)
        for job in jobs { app.send(.uploadEventReceived(.queued(job))) }
        app.type("3")
        return app
    }

    /// The status line of a screen: the row above the help bar.
    static func statusLine(_ screen: CellBuffer) -> String {
        let lines = screen.lines()
        return lines[lines.count - 2]
    }
}
