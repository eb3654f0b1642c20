import FerryApp
import Testing
import Uploading

@Suite("The event inbox")
struct EventInboxTests {
    @Test("batches come out oldest first, each as it went in (its storage not copied), and draining empties the inbox")
    func batchesComeOutAsTheyWentIn() {
        let spec = UploadJobSpec(url: "http://h/u", files: [])
        let first: [UploadEvent] = [.queued(UploadJob(id: 1, spec: spec)), .queued(UploadJob(id: 2, spec: spec))]
        let second: [UploadEvent] = [.pausedChanged(true)]
        let inbox = EventInbox()
        inbox.append(first)
        inbox.append([])
        inbox.append(second)
        let drained = inbox.drain()
        #expect(drained == [first, second])
        let address = { (events: [UploadEvent]) in events.withUnsafeBufferPointer { $0.baseAddress } }
        #expect(drained.map(address) == [address(first), address(second)], "a batch is kept, not copied")
        #expect(inbox.drain().isEmpty)
    }
}
