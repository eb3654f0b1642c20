/// Which faults the receiver injects into upload requests, for demos and for testing clients.
///
/// Only upload routes (`POST /upload`, `/upload/...`, `/multiupload`) are affected; `GET /` and
/// `GET /uploads` always answer normally. Per upload request the faults apply in this order:
/// ``stall`` (nothing else happens), ``dropRate`` (close part-way through the body),
/// ``status`` / ``failFirst`` / ``failRate`` (consume the whole body, keep nothing unless the
/// status is below 400, answer with the status), then ``delay`` before any answer.
///
/// Random decisions come from a seeded generator when ``seed`` is set, so a test can predict them:
/// for each upload request the receiver draws once for ``dropRate`` (only if it is above 0) and
/// then once for ``failRate`` (only if it is above 0), in arrival order.
public struct FaultPlan: Sendable, Equatable {
    /// Answer 500 to the first `failFirst` attempts of each filename, counted across requests.
    public var failFirst: Int
    /// Probability (0...1) of answering an upload with 500.
    public var failRate: Double
    /// Answer every upload with this status code instead of 200.
    public var status: Int?
    /// Milliseconds to wait before answering an upload.
    public var delayMilliseconds: Int
    /// Probability (0...1) of closing the connection part-way through reading the body.
    public var dropRate: Double
    /// Read nothing and answer nothing; keep the connection open until the server stops.
    public var stall: Bool
    /// Seed for the random decisions; `nil` seeds from the system generator.
    public var seed: UInt64?

    /// Creates a fault plan; the defaults inject nothing.
    ///
    /// - Parameters:
    ///   - failFirst: Attempts per filename answered with 500 before uploads of it succeed.
    ///   - failRate: Probability of a random 500.
    ///   - status: Status code for every upload answer.
    ///   - delayMilliseconds: Wait before answering.
    ///   - dropRate: Probability of dropping the connection mid-body.
    ///   - stall: Never read or answer.
    ///   - seed: Seed for the random decisions.
    public init(
        failFirst: Int = 0,
        failRate: Double = 0,
        status: Int? = nil,
        delayMilliseconds: Int = 0,
        dropRate: Double = 0,
        stall: Bool = false,
        seed: UInt64? = nil
    ) {
        self.failFirst = failFirst
        self.failRate = failRate
        self.status = status
        self.delayMilliseconds = delayMilliseconds
        self.dropRate = dropRate
        self.stall = stall
        self.seed = seed
    }

    /// A plan that injects no faults.
    public static let none = FaultPlan()

    /// Checks every value is in range.
    ///
    /// - Throws: ``ReceiverError/invalidConfiguration(reason:)`` naming the first bad option.
    public func validate() throws(ReceiverError) {
        for (option, value) in [("--fail-rate", failRate), ("--drop-rate", dropRate)] where !(0...1).contains(value) {
            throw .invalidConfiguration(reason: .probabilityOutOfRange(option: option, value: value))
        }
        if failFirst < 0 {
            throw .invalidConfiguration(reason: .valueOutOfRange(option: "--fail-first", value: Int64(failFirst), allowed: 0...Int64(Int32.max)))
        }
        if delayMilliseconds < 0 || delayMilliseconds > 3_600_000 {
            throw .invalidConfiguration(
                reason: .valueOutOfRange(option: "--delay", value: Int64(delayMilliseconds), allowed: 0...3_600_000))
        }
        if let status, !(200...599).contains(status) {
            throw .invalidConfiguration(reason: .invalidStatusCode(status))
        }
    }
}
