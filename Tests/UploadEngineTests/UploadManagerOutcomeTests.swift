import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadProtocols
@testable import UploadEngine

/// Where a transport may report an outcome from: the manager handles it in its root queue's turn,
/// on the reporting thread when it can (`UploadManager.hear`), queued when that thread is the
/// root queue's own.
@Suite("UploadManager hears outcomes from any thread")
struct UploadManagerOutcomeTests {
    @Test("a transport that answers at once from within start, and fails from within cancel (on the root queue), is heard")
    func answersFromWithinStartAndCancel() async throws {
        let directory = TemporaryDirectory()
        let transport = ImmediateTransport()
        let manager = UploadManager(configuration: .init(concurrencyLimit: 2), transport: transport,
                                    scheduler: ManualScheduler())
        let recorder = EventRecorder(manager)
        let specs = (0..<6).map { Fixtures.spec(directory.file("file\($0).bin", bytes: 10)) }
        // Odd calls answer 200 inside `start` (on the file queue); even ones wait for a cancel.
        let ids = try manager.enqueue(specs)
        try await waitUntil { transport.heldCount == 2 }
        // The manager's cancel runs on its root queue, where the transport reports at once.
        manager.cancelAll()
        let summary = await manager.waitUntilIdle()
        #expect(summary.succeeded + summary.cancelled == ids.count)
        #expect(summary.cancelled >= 2)
        #expect(summary.failed == 0)
        #expect(recorder.lines().last == "idle ok=\(summary.succeeded) failed=0 cancelled=\(summary.cancelled)")
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(condition())
    }
}

/// Answers every odd-numbered request with 200 from within `start`, and holds the others until
/// they are cancelled, then fails them from within `cancel()`, as `HTTPTransport` does for a
/// request still waiting for a connection.
private final class ImmediateTransport: UploadTransport {
    private let held = Mutex<[Int: @Sendable (Result<UploadResponse, UploadError>) -> Void]>([:])
    private let calls = Mutex(0)

    var heldCount: Int { held.withLock { $0.count } }

    func start(
        _ request: UploadRequest,
        bodyCompleting: @escaping @Sendable () -> Bool,
        completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void
    ) -> any TransportTask {
        let index = calls.withLock { calls in
            defer { calls += 1 }
            return calls
        }
        if index.isMultiple(of: 2) {
            held.withLock { $0[index] = completion }
            return Task(transport: self, index: index)
        }
        _ = bodyCompleting()
        completion(.success(UploadResponse(status: 200)))
        return Task(transport: self, index: index)
    }

    fileprivate func cancel(_ index: Int) {
        let completion = held.withLock { $0.removeValue(forKey: index) }
        completion?(.failure(.transferFailed(reason: .other(message: "cancelled"))))
    }

    private struct Task: TransportTask {
        let transport: ImmediateTransport
        let index: Int
        var bytesWritten: Int64 { 0 }
        func cancel() { transport.cancel(index) }
    }
}
