import Testing
import TextFormat
import FoundationEssentials

@Suite("HumanFormat")
struct HumanFormatTests {
    static let byteCases: [(Int64, String)] = [
        (0, "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1536, "1.5 KiB"),
        (1_234_567, "1.2 MiB"), (10 * 1024 * 1024, "10.0 MiB"), (123 * 1024 * 1024, "123 MiB"),
        (1024 * 1024 * 1024 - 1, "1.0 GiB"), (102_348, "99.9 KiB"), (102_360, "100 KiB"),
        (5_497_558_138_880, "5.0 TiB"), (-2048, "-2.0 KiB"), (Int64.max, "8.0 EiB"),
    ]

    @Test(arguments: byteCases)
    func bytes(count: Int64, expected: String) {
        #expect(HumanFormat.bytes(count) == expected)
    }

    @Test func bytesOfOtherIntegerTypes() {
        #expect(HumanFormat.bytes(UInt64.max) == "16.0 EiB")
        #expect(HumanFormat.bytes(Int.min) == "-8.0 EiB")
        #expect(HumanFormat.bytes(UInt8(200)) == "200 B")
    }

    @Test func rates() {
        #expect(HumanFormat.rate(bytesPerSecond: 0) == "0 B/s")
        #expect(HumanFormat.rate(bytesPerSecond: 512.4) == "512 B/s")
        #expect(HumanFormat.rate(bytesPerSecond: 1536) == "1.5 KiB/s")
        #expect(HumanFormat.rate(bytesPerSecond: 12.5 * 1024 * 1024) == "12.5 MiB/s")
        #expect(HumanFormat.rate(bytesPerSecond: -1) == "--")
        #expect(HumanFormat.rate(bytesPerSecond: .nan) == "--")
        #expect(HumanFormat.rate(bytesPerSecond: .infinity) == "--")
    }

    @Test func percentages() {
        #expect(HumanFormat.percent(0) == "0%")
        #expect(HumanFormat.percent(0.423) == "42%")
        #expect(HumanFormat.percent(0.999) == "99%")
        #expect(HumanFormat.percent(1) == "100%")
        #expect(HumanFormat.percent(1.5) == "100%")
        #expect(HumanFormat.percent(-1) == "0%")
        #expect(HumanFormat.percent(.nan) == "0%")
    }

    static let durationCases: [(Double, String)] = [
        (0, "0s"), (42, "42s"), (59.4, "59s"), (59.6, "1m00s"), (65, "1m05s"), (3599, "59m59s"),
        (3600, "1h00m"), (7380, "2h03m"), (86399, "23h59m"), (86400, "1d00h"), (97200, "1d03h"),
        (-1, "--"), (.infinity, "--"), (.nan, "--"),
    ]

    @Test(arguments: durationCases)
    func durations(seconds: Double, expected: String) {
        #expect(HumanFormat.duration(seconds: seconds) == expected)
    }

    @Test func swiftDurations() {
        #expect(HumanFormat.duration(.seconds(65)) == "1m05s")
        #expect(HumanFormat.duration(.milliseconds(1500)) == "2s")
    }

    @Test func eta() {
        #expect(HumanFormat.eta(remainingBytes: 0, bytesPerSecond: 0) == "0s")
        #expect(HumanFormat.eta(remainingBytes: 1000, bytesPerSecond: 100) == "10s")
        #expect(HumanFormat.eta(remainingBytes: 1001, bytesPerSecond: 100) == "11s")
        #expect(HumanFormat.eta(remainingBytes: 100, bytesPerSecond: 0) == "--")
        #expect(HumanFormat.eta(remainingBytes: Int64(3 * 1024 * 1024 * 1024), bytesPerSecond: 1024 * 1024) == "51m12s")
    }

    @Test func elapsedTimesShowTenthsUnderTenSeconds() {
        #expect(HumanFormat.elapsed(.milliseconds(250)) == "0.3s")
        #expect(HumanFormat.elapsed(.zero) == "0.0s")
        #expect(HumanFormat.elapsed(.milliseconds(9940)) == "9.9s")
        #expect(HumanFormat.elapsed(.milliseconds(9960)) == "10s")
        #expect(HumanFormat.elapsed(.seconds(75)) == "1m15s")
        #expect(HumanFormat.elapsed(.milliseconds(-5)) == "--")
    }

    @Test func preciseTimestampsShowSeconds() {
        let utc = TimeZone(identifier: "UTC")!
        let moment = Date(timeIntervalSince1970: 1_795_324_387)
        #expect(HumanFormat.preciseTimestamp(moment, timeZone: utc) == "2026-11-22 05:13:07")
    }

    @Test func timestamps() {
        let utc = TimeZone(identifier: "UTC")!
        let moment = Date(timeIntervalSince1970: 1_795_324_422)
        #expect(HumanFormat.timestamp(moment, timeZone: utc) == "2026-11-22 05:13")
        #expect(HumanFormat.date(moment, timeZone: utc) == "2026-11-22")
        let newYear = Date(timeIntervalSince1970: 1_767_481_500)
        #expect(HumanFormat.timestamp(newYear, timeZone: utc) == "2026-01-03 23:05")
        #expect(HumanFormat.timestamp(newYear, timeZone: TimeZone(secondsFromGMT: 3600)!) == "2026-01-04 00:05")
    }

    @Test func relativeTimes() {
        let utc = TimeZone(identifier: "UTC")!
        let now = Date(timeIntervalSince1970: 1_795_324_422)
        func ago(_ seconds: Double) -> String {
            HumanFormat.relative(now.addingTimeInterval(-seconds), now: now, timeZone: utc)
        }
        #expect(ago(3) == "just now")
        #expect(ago(-30) == "just now")
        #expect(ago(30) == "30s ago")
        #expect(ago(300) == "5m ago")
        #expect(ago(7200) == "2h ago")
        #expect(ago(3 * 86400) == "3d ago")
        #expect(ago(30 * 86400) == "2026-10-23 05:13")
        #expect(ago(-120) == "2026-11-22 05:15")
    }
}
