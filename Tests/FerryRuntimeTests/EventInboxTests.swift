import Dispatch
import FerryRuntime
import Synchronization
import Testing
import UploadModel

@Suite("The event inbox")
struct EventInboxTests {
    private static let spec = UploadJobSpec(url: "http://h/u", files: [])

    @Test("batches come out oldest first, as they went in; an empty one is not kept; draining empties the inbox")
    func batchesComeOutInOrder() {
        let first: [UploadEvent] = [.queued(UploadJob(id: 1, spec: Self.spec)), .queued(UploadJob(id: 2, spec: Self.spec))]
        let second: [UploadEvent] = [.pausedChanged(true)]
        let inbox = EventInbox()
        inbox.append(first)
        inbox.append([])
        inbox.append(second)
        #expect(inbox.drain() == [first, second])
        #expect(inbox.drain().isEmpty)
    }

    @Test("batches appended from many threads all come out, each whole and in its thread's order; each wakes the loop")
    func appendsFromManyThreads() {
        let inbox = EventInbox()
        let wakes = Atomic<Int>(0)
        inbox.notify { wakes.add(1, ordering: .relaxed) }
        let threads = 8
        let batchesPerThread = 200
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<batchesPerThread {
                let id = UploadJobID(Int64(thread * batchesPerThread + index))
                inbox.append([.queued(UploadJob(id: id, spec: Self.spec)), .pausedChanged(index.isMultiple(of: 2))])
            }
        }
        let drained = inbox.drain()
        #expect(drained.count == threads * batchesPerThread)
        #expect(wakes.load(ordering: .relaxed) == threads * batchesPerThread)
        let ids = drained.map { batch -> UploadJobID? in
            guard batch.count == 2, case let .queued(job) = batch[0] else { return nil }
            return job.id
        }
        #expect(!ids.contains(nil), "every batch came out whole")
        for thread in 0..<threads {
            let own = ids.compactMap { $0 }.filter { Int($0.rawValue) / batchesPerThread == thread }
            #expect(own == own.sorted(), "thread \(thread)'s batches kept their order")
        }
    }
}
