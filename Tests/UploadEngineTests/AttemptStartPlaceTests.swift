import Dispatch
import FileSystem
import Foundation
import Multipart
import Synchronization
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadEngine

/// Where the manager starts an attempt: in its root queue's turn when the transport
/// `startsFromAnyThread` and the job's files are on a local file system (no thread hand-off for a
/// small file), on its file queue otherwise (a path that hangs holds up later starts only).
@Suite("UploadManager starts local files' jobs in the root queue's turn, others on the file queue")
struct AttemptStartPlaceTests {
    @Test("a transport that starts from any thread: a local file's job starts in the root queue's turn, a procfs file's on the file queue")
    func localFilesStartInRootQueueTurn() async throws {
        let directory = TemporaryDirectory()
        let local = directory.file("local.bin", bytes: 10)
        let device = try #require(FileStamp.current(of: local)?.stamp.identity?.device)
        try #require(LocalFileSystems.contains(device: device), "the temporary directory is on a local file system")
        let places = try await startPlaces(startsFromAnyThread: true, paths: [local, "/proc/self/status", local])
        #expect(places == [true, false, true])
    }

    @Test("a transport that does not say it starts from any thread gets every start on the file queue")
    func otherTransportsStartOnFileQueue() async throws {
        let directory = TemporaryDirectory()
        let local = directory.file("local.bin", bytes: 10)
        let places = try await startPlaces(startsFromAnyThread: false, paths: [local, local])
        #expect(places == [false, false])
    }

    /// Sends one job per path, one at a time, and returns, per job in order, whether its
    /// transport start ran in the manager's root queue's turn.
    private func startPlaces(startsFromAnyThread: Bool, paths: [String]) async throws -> [Bool] {
        let root = Mutex<RootTurn?>(nil)
        let onRootQueue = Mutex<[UploadJobID: Bool]>([:])
        let transport = FakeTransport(startsFromAnyThread: startsFromAnyThread) { request, _ in
            let here = root.withLock { $0 }?.isHeldHere ?? false
            onRootQueue.withLock { $0[request.jobID] = here }
            return .respond(status: 200)
        }
        let manager = UploadManager(configuration: .init(concurrencyLimit: 1), transport: transport,
                                    scheduler: ManualScheduler())
        root.withLock { $0 = manager.root }
        let ids = try manager.enqueue(paths.map { Fixtures.spec($0) })
        let summary = await manager.waitUntilIdle()
        #expect(summary.succeeded == paths.count)
        #expect(onRootQueue.withLock { $0.count } == paths.count, "every job was started once")
        let places = onRootQueue.withLock { $0 }
        return ids.map { places[$0] ?? false }
    }
}
