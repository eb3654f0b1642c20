/// How many bytes the next chunk (one `PATCH`, or the creation `POST` that carries the first)
/// holds: a fixed size (`--chunk-size`), or, by default, about ``target`` of what the link moved
/// in the chunk before. Each chunk has fixed costs — a round trip, the server's last write and
/// hash before it answers, the body's file regions starting small again — which on a fast link
/// are most of a 4 MiB chunk's time (a GiB in 4 MiB chunks took 1.41 s to `ferry serve` on
/// loopback, in 64 MiB chunks 1.03 s); sized to the link, they stay a small part of each chunk,
/// and a chunk cut off costs about a second of sending on any link.
///
/// A link-following size starts at ``TusUploadPlan/defaultChunkSize`` and moves in steps of 4×:
/// up when a whole chunk took at most a quarter of ``target``, down when one took more than 4×
/// ``target``, never below where it started nor above ``maximum``. Steps, rather than the measured
/// rate itself, keep the size steady, and ``predictedNextSize`` says where the next step most
/// likely lands, so the checksum hashed ahead for the next chunk is for the range that is then sent
/// — during the ramp-up too.
public struct TusChunkSizing: Sendable, Hashable {
    /// A whole chunk's bytes and the time it took.
    private struct Measurement: Sendable, Hashable {
        var bytes: Int64
        var duration: Duration
    }

    /// About how long a link-following chunk takes to send.
    public static let target = Duration.seconds(1)
    /// The largest link-following chunk.
    public static let maximum: Int64 = 1 << 30

    /// The size of the next chunk.
    public private(set) var size: Int64
    /// Whether ``size`` follows the link (else it is fixed).
    public let followsLink: Bool
    private let minimum: Int64
    /// The last whole chunk measured, if any.
    private var lastMeasured: Measurement?

    /// The size most likely to follow a chunk of ``size`` bytes: what ``size`` becomes if that
    /// chunk moves at the rate last measured. Before any measurement, a step up (a first 4 MiB
    /// chunk grows on any link faster than 16 MiB/s); a fixed size predicts itself. A prediction
    /// only: ``chunkMoved(bytes:in:)`` sizes by what the chunk really took.
    public var predictedNextSize: Int64 {
        guard followsLink else { return size }
        guard let lastMeasured else { return resized(after: .zero) }
        return resized(after: lastMeasured.duration * (Double(size) / Double(lastMeasured.bytes)))
    }

    /// A fixed chunk size.
    ///
    /// - Parameter size: The size; at least 1.
    public init(fixed size: Int64) {
        precondition(size >= 1, "a chunk holds at least one byte")
        self.size = size
        self.followsLink = false
        self.minimum = size
    }

    /// A chunk size that follows the link, from `start` up.
    ///
    /// - Parameter start: The first chunk's size (and the smallest); at least 1.
    public init(followingLinkFrom start: Int64) {
        precondition(start >= 1, "a chunk holds at least one byte")
        self.size = start
        self.followsLink = true
        self.minimum = start
    }

    /// A chunk of `bytes` went out and was confirmed, `duration` after its request started.
    ///
    /// - Parameters:
    ///   - bytes: The bytes the server confirmed for it.
    ///   - duration: From the request's start to its answer.
    public mutating func chunkMoved(bytes: Int64, in duration: Duration) {
        guard followsLink, bytes >= size else { return }  // a last, shorter chunk says little
        lastMeasured = Measurement(bytes: bytes, duration: duration)
        size = resized(after: duration)
    }

    /// The size after a chunk of ``size`` bytes that took `duration`: 4× when it took at most a
    /// quarter of ``target``, a quarter when more than 4× ``target``, within the bounds.
    private func resized(after duration: Duration) -> Int64 {
        if duration * 4 <= Self.target, size <= Self.maximum / 4 { return size * 4 }
        if duration > Self.target * 4, size / 4 >= minimum { return size / 4 }
        return size
    }
}
