import Dispatch
import Foundation
import Synchronization
import TestSupport
@testable import UploadModel
@testable import UploadEngine

/// Records a manager's events through a callback subscription.
final class EventRecorder: Sendable {
    private let queue = DispatchQueue(label: "ferry.tests.events")
    private let box: EventBox
    private let subscription: UploadSubscription
    private let manager: UploadManager

    init(_ manager: UploadManager) {
        let box = EventBox()
        self.box = box
        self.manager = manager
        subscription = manager.subscribe(on: queue) { events in events.forEach(box.append) }
    }

    /// Every event published so far (hands over the events the manager gathers, then waits for
    /// the delivery queue).
    var all: [UploadEvent] {
        manager.waitForRootQueue()
        queue.sync {}
        return box.all
    }

    /// The events in `ActionDescription`'s short form, progress excluded unless asked.
    func lines(includingProgress: Bool = false) -> [String] {
        all.filter { includingProgress || !Self.isProgress($0) }.map(ActionDescription.describe)
    }

    static func isProgress(_ event: UploadEvent) -> Bool {
        if case .progressed = event { return true }
        return false
    }

    deinit {
        subscription.cancel()
    }
}

final class EventBox: Sendable {
    private let events = Mutex<[UploadEvent]>([])
    func append(_ event: UploadEvent) { events.withLock { $0.append(event) } }
    var all: [UploadEvent] { events.withLock { $0 } }
}

/// A manager wired to a `FakeTransport` and a `ManualScheduler`, with files in a temporary
/// directory.
final class ManagerHarness: Sendable {
    let directory = TemporaryDirectory()
    let scheduler = ManualScheduler()
    let transport: FakeTransport
    let manager: UploadManager
    let recorder: EventRecorder

    init(
        limit: Int = 4,
        retry: RetryPolicy = RetryPolicy(),
        transport: FakeTransport = FakeTransport(),
        journal: (any JournalStore)? = nil,
        jitter: Double = 0
    ) {
        self.transport = transport
        manager = UploadManager(
            configuration: .init(concurrencyLimit: limit, retryPolicy: retry),
            transport: transport,
            journal: journal,
            scheduler: scheduler,
            random: FixedRandom(fraction: jitter)
        )
        recorder = EventRecorder(manager)
    }

    /// Lets every reply, hop and event in progress finish (the fake's replies and the root queue
    /// feed each other, so this goes round a few times).
    func settle() {
        for _ in 0..<20 {
            transport.waitForPendingReplies()
            manager.waitForRootQueue()
        }
    }

    /// Creates files and queues one job per file.
    @discardableResult
    func enqueue(_ count: Int, bytes: Int = 100) throws -> [UploadJobID] {
        let specs = (0..<count).map { index in
            Fixtures.spec(directory.file("file\(index)-\(UUID().uuidString.prefix(6)).bin", bytes: bytes))
        }
        let ids = try manager.enqueue(specs)
        settle()
        return ids
    }

    /// Moves virtual time and lets the consequences settle.
    func advance(by duration: Duration) {
        scheduler.advance(by: duration)
        settle()
    }
}
