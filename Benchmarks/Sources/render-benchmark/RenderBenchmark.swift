import Dispatch
import FerryApp
import FerryRuntime
import Foundation
import TerminalUI
import UploadModel

/// The render figure: the time to build one frame of the Queue pane with 10,000 jobs (goal:
/// at most 2 ms), at 120×40 and 200×60, with jobs in every state and the cursor mid-queue.
/// Prints the median and the 99th percentile of 2,000 frames each. Then the browser figure:
/// reading, sorting and drawing a directory of 100,000 entries (goal: well under a second).
@main
struct RenderBenchmark {
    static let jobCount = 10_000
    static let frames = 2_000

    static func main() throws {
        queueFigure()
        try browserFigure()
    }

    static func queueFigure() {
        var state = AppState(directory: "/", settings: FormSettings(url: "http://127.0.0.1:3000/upload"),
                             homeDirectory: "/", size: Size(width: 120, height: 40))
        let states: [UploadJobState] = [.succeeded, .uploading, .queued, .failed, .cancelled]
        for index in 0..<jobCount {
            let spec = UploadJobSpec(url: "http://127.0.0.1:3000/upload",
                                     files: [QueuedFile(path: "/data/photos/IMG_\(index).jpg", size: 3_000_000,
                                                        modificationTimeNanoseconds: 0)])
            let jobState = states[index % states.count]
            let failed = jobState == .failed
            let job = UploadJob(
                id: UploadJobID(Int64(index + 1)), spec: spec, state: jobState,
                progress: UploadProgress(bytesSent: Int64(index % 100) * 30_000, totalBytes: 3_000_000,
                                         bytesPerSecond: 12_000_000, estimatedTimeRemaining: .seconds(3)),
                attempts: 1,
                lastError: failed ? .serverRejected(status: 503, retryAfter: nil) : nil,
                response: failed ? UploadResponse(status: 503, body: Array("try later".utf8)) : nil
            )
            _ = state.update(.uploadEventReceived(.queued(job)))
        }
        _ = state.update(.keyPressed(.char("3")))
        for _ in 0..<(jobCount / 2) / 40 { _ = state.update(.keyPressed(.key(.pageDown))) }
        for size in [Size(width: 120, height: 40), Size(width: 200, height: 60)] {
            _ = state.update(.keyPressed(.resize(size)))
            var samples: [Double] = []
            samples.reserveCapacity(frames)
            var checksum = 0
            for _ in 0..<frames {
                let start = DispatchTime.now().uptimeNanoseconds
                let buffer = AppView.render(state, size: size)
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                checksum &+= buffer.cells.count
            }
            samples.sort()
            let median = samples[samples.count / 2]
            let p99 = samples[samples.count * 99 / 100]
            print(String(format: "render %@ queue of %d jobs at %dx%d: median %.3f ms, p99 %.3f ms (goal <= 2 ms) [%d]",
                         "Queue", jobCount, size.width, size.height, median, p99, checksum % 7))
        }
    }

    static func browserFigure() throws {
        let directory = NSTemporaryDirectory() + "ferry-render-benchmark-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for index in 0..<100_000 {
            _ = FileManager.default.createFile(atPath: directory + "/file-\(index).dat", contents: nil)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        var state = AppState(directory: directory, settings: FormSettings(), homeDirectory: "/",
                             size: Size(width: 120, height: 40))
        let listing = DirectoryReader.read(directory)
        let read = DispatchTime.now().uptimeNanoseconds
        _ = state.update(.directoryLoaded(listing))
        let loaded = DispatchTime.now().uptimeNanoseconds
        _ = AppView.render(state, size: state.size)
        let drawn = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<1000 { _ = state.update(.keyPressed(.key(.pageDown))) }
        let scrollStart = DispatchTime.now().uptimeNanoseconds
        _ = state.update(.keyPressed(.key(.pageDown)))
        _ = AppView.render(state, size: state.size)
        let scrolled = DispatchTime.now().uptimeNanoseconds
        print(String(format: "open a folder of %d entries: read %.0f ms, sort+filter %.0f ms, first frame %.1f ms; "
                     + "page down + frame %.2f ms (goal: open well under 1 s)",
                     listing.entries.count, Double(read - start) / 1e6, Double(loaded - read) / 1e6,
                     Double(drawn - loaded) / 1e6, Double(scrolled - scrollStart) / 1e6))
    }
}
