import NIOCore
import Testing

@testable import Receiver

@Suite("--throttle pacing, durations, the new options' ranges")
struct ReadThrottleTests {
    @Test("each byte read costs 1/rate seconds; the next read waits until the bytes are paid for")
    func paces() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        var throttle = ReadThrottle(bytesPerSecond: 1000)
        #expect(throttle.nextRead(now: start) == nil, "the first read goes at once")
        throttle.bytesRead(500, now: start)
        #expect(throttle.nextRead(now: start) == start + .milliseconds(500))
        #expect(throttle.nextRead(now: start + .milliseconds(499)) == start + .milliseconds(500))
        #expect(throttle.nextRead(now: start + .milliseconds(500)) == nil)
        throttle.bytesRead(250, now: start + .milliseconds(400))
        #expect(throttle.nextRead(now: start + .milliseconds(400)) == start + .milliseconds(750), "debts add up")
        throttle.bytesRead(100, now: start + .seconds(10))
        #expect(throttle.nextRead(now: start + .seconds(10)) == start + .seconds(10) + .milliseconds(100), "idle time is no credit")
    }

    @Test("durations as people write them")
    func durations() {
        #expect(DurationText.parse("30s") == .seconds(30))
        #expect(DurationText.parse("10m") == .seconds(600))
        #expect(DurationText.parse("24h") == .seconds(86_400))
        #expect(DurationText.parse("7d") == .seconds(604_800))
        #expect(DurationText.parse("1.5") == .milliseconds(1500))
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("2H") == .seconds(7200))
        for bad in ["", "s", "10 years", "-1s", "1e3", "10w"] {
            #expect(DurationText.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("--tus-expire and --throttle out of range are refused, naming the option")
    func validation() {
        #expect(throws: Never.self) { try ReceiverConfiguration(tusExpiration: .seconds(1), throttle: 1).validate() }
        for (configuration, option) in [
            (ReceiverConfiguration(tusExpiration: .milliseconds(999)), "--tus-expire"),
            (ReceiverConfiguration(tusExpiration: .seconds(400 * 86_400)), "--tus-expire"),
            (ReceiverConfiguration(throttle: 0), "--throttle"),
        ] {
            #expect {
                try configuration.validate()
            } throws: { error in
                (error as? ReceiverError)?.description.contains(option) == true
            }
        }
    }
}
