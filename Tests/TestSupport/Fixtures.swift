import Foundation
import Multipart
@testable import UploadModel

package enum Fixtures {
    /// A spec sending one file to a test URL.
    package static func spec(_ path: String, url: String = "http://127.0.0.1:9/upload") -> UploadJobSpec {
        UploadJobSpec(url: url, files: [QueuedFile.capture(path: path)])
    }

    /// A spec whose file is only a name (for pure state-machine tests).
    package static func spec(named name: String) -> UploadJobSpec {
        UploadJobSpec(url: "http://example.test/upload", files: [QueuedFile(path: name, size: 1000, modificationTimeNanoseconds: 1)])
    }

    /// A job with a spec from `spec(named:)`.
    package static func job(_ id: Int64, state: UploadJobState = .queued) -> UploadJob {
        UploadJob(id: UploadJobID(id), spec: spec(named: "file\(id).bin"), state: state)
    }

    package static func at(_ milliseconds: Int64) -> SchedulerInstant {
        SchedulerInstant(nanoseconds: milliseconds * 1_000_000)
    }

    /// A wall-clock time `milliseconds` after a fixed origin (2026-01-01 00:00:00 UTC).
    package static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: 1_767_225_600 + Double(milliseconds) / 1000)
    }
}
