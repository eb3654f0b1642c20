import Multipart
import Testing
@testable import UploadProtocols

/// `TusChunkSizing`: chunks sized to about a second of the link, in steps of 4×, between the
/// first size and 1 GiB; a fixed size never moves.
@Suite("TusChunkSizing")
struct TusChunkSizingTests {
    static let mebibyte: Int64 = 1 << 20

    @Test("a fast link grows the chunk 4× per quick chunk, up to 1 GiB; a slow one shrinks it back, never below the start")
    func followsTheLink() {
        var sizing = TusChunkSizing(followingLinkFrom: 4 * Self.mebibyte)
        sizing.chunkMoved(bytes: 4 * Self.mebibyte, in: .milliseconds(20))
        #expect(sizing.size == 16 * Self.mebibyte)
        sizing.chunkMoved(bytes: 16 * Self.mebibyte, in: .milliseconds(250))
        #expect(sizing.size == 64 * Self.mebibyte, "a quarter of the target still grows it")
        sizing.chunkMoved(bytes: 64 * Self.mebibyte, in: .milliseconds(600))
        #expect(sizing.size == 64 * Self.mebibyte, "about a second: steady")
        sizing.chunkMoved(bytes: 64 * Self.mebibyte, in: .milliseconds(30))
        sizing.chunkMoved(bytes: 256 * Self.mebibyte, in: .milliseconds(100))
        #expect(sizing.size == TusChunkSizing.maximum)
        sizing.chunkMoved(bytes: TusChunkSizing.maximum, in: .milliseconds(100))
        #expect(sizing.size == TusChunkSizing.maximum, "never above 1 GiB")
        sizing.chunkMoved(bytes: TusChunkSizing.maximum, in: .seconds(5))
        #expect(sizing.size == 256 * Self.mebibyte, "more than 4 s: a quarter")
        for _ in 0..<5 { sizing.chunkMoved(bytes: sizing.size, in: .seconds(30)) }
        #expect(sizing.size == 4 * Self.mebibyte, "never below the first size")
    }

    @Test("a last, shorter chunk and a fixed size leave the size alone")
    func steadyCases() {
        var sizing = TusChunkSizing(followingLinkFrom: 4 * Self.mebibyte)
        sizing.chunkMoved(bytes: Self.mebibyte, in: .milliseconds(1))
        #expect(sizing.size == 4 * Self.mebibyte)
        var fixed = TusChunkSizing(fixed: 512 * 1024)
        fixed.chunkMoved(bytes: 512 * 1024, in: .milliseconds(1))
        fixed.chunkMoved(bytes: 512 * 1024, in: .seconds(60))
        #expect(fixed.size == 512 * 1024 && !fixed.followsLink)
    }

    @Test("the prediction: a step up before any measurement, then the size the last whole chunk's rate leads to; a fixed size predicts itself")
    func predictsTheNextSize() {
        var sizing = TusChunkSizing(followingLinkFrom: 4 * Self.mebibyte)
        #expect(sizing.predictedNextSize == 16 * Self.mebibyte, "no measurement yet: a first chunk grows on any fast link")
        sizing.chunkMoved(bytes: Self.mebibyte, in: .seconds(1))
        #expect(sizing.predictedNextSize == 16 * Self.mebibyte, "a last, shorter chunk measures nothing")
        sizing.chunkMoved(bytes: 4 * Self.mebibyte, in: .milliseconds(20))
        #expect(sizing.size == 16 * Self.mebibyte)
        #expect(sizing.predictedNextSize == 64 * Self.mebibyte, "16 MiB at 200 MiB/s: 80 ms, another step up")
        sizing.chunkMoved(bytes: 16 * Self.mebibyte, in: .milliseconds(200))
        #expect(sizing.size == 64 * Self.mebibyte)
        #expect(sizing.predictedNextSize == 64 * Self.mebibyte, "64 MiB at 80 MiB/s: 800 ms, steady")
        sizing.chunkMoved(bytes: 64 * Self.mebibyte, in: .milliseconds(60))
        #expect(sizing.size == 256 * Self.mebibyte)
        #expect(sizing.predictedNextSize == TusChunkSizing.maximum, "240 ms: up to the maximum")
        sizing.chunkMoved(bytes: 256 * Self.mebibyte, in: .milliseconds(100))
        #expect(sizing.predictedNextSize == TusChunkSizing.maximum, "never above 1 GiB")
        sizing.chunkMoved(bytes: TusChunkSizing.maximum, in: .seconds(20))
        #expect(sizing.size == 256 * Self.mebibyte)
        #expect(sizing.predictedNextSize == 64 * Self.mebibyte, "256 MiB at 51 MiB/s: 5 s, a step down")

        var slow = TusChunkSizing(followingLinkFrom: 4 * Self.mebibyte)
        slow.chunkMoved(bytes: 4 * Self.mebibyte, in: .seconds(30))
        #expect(slow.size == 4 * Self.mebibyte && slow.predictedNextSize == 4 * Self.mebibyte, "never below the first size")

        var fixed = TusChunkSizing(fixed: 512 * 1024)
        #expect(fixed.predictedNextSize == 512 * 1024)
        fixed.chunkMoved(bytes: 512 * 1024, in: .milliseconds(1))
        #expect(fixed.predictedNextSize == 512 * 1024)
    }

    @Test("the machine sizes the next PATCH from the last one's time, when the plan follows the link; --chunk-size keeps its size")
    func machineSizesChunks() {
        let length = 200 * Self.mebibyte
        func machine(follows: Bool) -> TusClientStateMachine {
            var plan = TusClientStateMachineTests.plan(size: length, chunk: 4 * Self.mebibyte)
            plan.chunkSizeFollowsLink = follows
            return TusClientStateMachine(plan: plan)
        }
        for follows in [true, false] {
            var tus = machine(follows: follows)
            _ = tus.start()
            _ = tus.answered(TusClientStateMachineTests.options)
            let first = TusClientStateMachineTests.request(tus.answered(TusClientStateMachineTests.response(201, [("Location", "/files/abc")])))
            #expect(first?.range == 0..<4 * Self.mebibyte)
            let confirmed = TusClientStateMachineTests.response(204, [("Upload-Offset", String(4 * Self.mebibyte))])
            let second = TusClientStateMachineTests.request(tus.answered(confirmed, after: .milliseconds(40)))
            let expected = follows ? 4 * Self.mebibyte..<20 * Self.mebibyte : 4 * Self.mebibyte..<8 * Self.mebibyte
            #expect(second?.range == expected, "follows the link: \(follows)")
        }
    }
}
