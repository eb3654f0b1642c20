import NIOCore

/// Decides when a connection has kept the receiver waiting too long (``ReceiverTimeouts``):
/// events in, an ``Action`` out, time passed in by the caller, no I/O (NIO style;
/// ``ConnectionTimeoutHandler`` carries the actions out).
///
/// ```
///  connected ─▶ awaitingRequest(first) ─(a byte)─▶ readingHead ─(head)─▶ readingBody ─(end)─▶ processing
///                    ▲   (keep-alive idle: close)      (header timeout: 408)  (body timeout, slow: 408)  │
///                    └──────────────────────────── (answer's end written, request read) ◀─────────────┘
/// ```
/// The body's clocks run only while a read is pending (someone wants more of the body and no
/// byte came yet), so time the receiver spends not reading — a file being written, `--stall` —
/// never counts against the client. Independently, an answer the client does not read (the
/// connection stays unwritable) is cut after the send timeout.
struct ConnectionTimeoutStateMachine {
    /// What to do at a deadline.
    enum Action: Equatable {
        /// Nothing yet.
        case none
        /// Close without a word: nothing of a request arrived (or the answer is not being read).
        case close
        /// Answer 408 and close: the request head did not arrive in time. No request exists yet
        /// for the server to answer, so the handler writes the answer itself.
        case answerTimeout(ReceiverError.RequestRejectionReason)
        /// Fail the request being read (a 408 reason), so the upload handler answers 408 and
        /// removes what it stored; close after ``answerGrace`` if it is still open then.
        case failRequest(ReceiverError.RequestRejectionReason)
    }

    /// The body's progress, counted in time spent waiting for it.
    private struct BodyClock {
        /// When the pending read began, if one is pending.
        var waitingSince: NIODeadline?
        /// Time waited since the last body bytes, before `waitingSince`.
        var waitedSinceBytes = TimeAmount.zero
        /// Time waited in the current rate window, before `waitingSince`.
        var windowWaited = TimeAmount.zero
        /// Bytes received in the current rate window.
        var windowBytes: Int64 = 0
    }

    private enum Phase {
        /// No byte of the next request yet; `first` for a connection's first request.
        case awaitingRequest(first: Bool, since: NIODeadline)
        case readingHead(deadline: NIODeadline)
        case readingBody(BodyClock)
        /// The request was read; the receiver is working on the answer.
        case processing
        /// A timeout was reported; the connection closes by `deadline` at the latest.
        case closing(deadline: NIODeadline)
    }

    /// How long a request failed by a body timeout has to answer before the connection is
    /// closed anyway.
    static let answerGrace = TimeAmount.seconds(5)

    private let timeouts: ReceiverTimeouts
    private var phase: Phase
    /// Whether the current request's final answer has been written in full.
    private var answered = false
    /// When the connection became unwritable, while it is.
    private var unwritableSince: NIODeadline?

    /// Starts the clock for a connection that has just been accepted.
    ///
    /// - Parameters:
    ///   - timeouts: The limits.
    ///   - now: The current time.
    init(timeouts: ReceiverTimeouts, now: NIODeadline) {
        self.timeouts = timeouts
        self.phase = .awaitingRequest(first: true, since: now)
    }

    /// The earliest time ``deadlineReached(now:)`` may have something to do, if any.
    var nextDeadline: NIODeadline? {
        var deadlines: [NIODeadline] = []
        if let unwritableSince { deadlines.append(unwritableSince + timeouts.send.timeAmount) }
        switch phase {
        case .awaitingRequest(let first, let since):
            deadlines.append(since + (first ? timeouts.header : timeouts.keepAliveIdle).timeAmount)
        case .readingHead(let deadline), .closing(let deadline):
            deadlines.append(deadline)
        case .readingBody(let clock):
            if let since = clock.waitingSince {
                deadlines.append(since + (timeouts.body.timeAmount - clock.waitedSinceBytes))
                if timeouts.minimumBodyRate > 0 {
                    deadlines.append(since + (timeouts.rateWindow.timeAmount - clock.windowWaited))
                }
            }
        case .processing:
            break
        }
        return deadlines.min()
    }

    /// Bytes arrived from the client (a read completed), whether or not they made a whole part.
    ///
    /// - Parameter now: The current time.
    mutating func bytesArrived(now: NIODeadline) {
        guard case .awaitingRequest(let first, let since) = phase else { return }
        phase = .readingHead(deadline: (first ? since : now) + timeouts.header.timeAmount)
    }

    /// A request head was decoded.
    ///
    /// - Parameter now: The current time.
    mutating func headReceived(now: NIODeadline) {
        if case .closing = phase { return }
        answered = false
        phase = .readingBody(BodyClock())
    }

    /// The receiver asked for more of the connection's bytes.
    ///
    /// - Parameter now: The current time.
    mutating func readRequested(now: NIODeadline) {
        guard case .readingBody(var clock) = phase, clock.waitingSince == nil else { return }
        clock.waitingSince = now
        phase = .readingBody(clock)
    }

    /// Body bytes were decoded.
    ///
    /// - Parameters:
    ///   - count: How many.
    ///   - now: The current time.
    /// - Returns: What to do: the bytes may complete a rate window that was too slow.
    mutating func bodyReceived(count: Int, now: NIODeadline) -> Action {
        guard case .readingBody(var clock) = phase else { return .none }
        settle(&clock, now: now)
        clock.waitingSince = nil  // this read is answered; the next one is asked for anew
        clock.waitedSinceBytes = .zero
        clock.windowBytes += Int64(count)
        return finishWindow(&clock, now: now)
    }

    /// The request's end was decoded.
    ///
    /// - Parameter now: The current time.
    mutating func endReceived(now: NIODeadline) {
        guard case .readingBody = phase else { return }
        phase = answered ? .awaitingRequest(first: false, since: now) : .processing
    }

    /// The end of an answer is being written.
    ///
    /// - Parameter now: The current time.
    mutating func answerEnded(now: NIODeadline) {
        switch phase {
        case .processing:
            phase = .awaitingRequest(first: false, since: now)
        case .readingBody:
            answered = true  // an early answer; the rest of the body is still read (or not)
        case .awaitingRequest, .readingHead, .closing:
            break
        }
    }

    /// The connection's writability changed.
    ///
    /// - Parameters:
    ///   - isWritable: Whether it can take more bytes now.
    ///   - now: The current time.
    mutating func writabilityChanged(isWritable: Bool, now: NIODeadline) {
        if isWritable {
            unwritableSince = nil
        } else if unwritableSince == nil {
            unwritableSince = now
        }
    }

    /// A scheduled deadline passed (perhaps one that no longer applies).
    ///
    /// - Parameter now: The current time.
    /// - Returns: What to do.
    mutating func deadlineReached(now: NIODeadline) -> Action {
        if let unwritableSince, now >= unwritableSince + timeouts.send.timeAmount {
            phase = .closing(deadline: now)
            return .close
        }
        switch phase {
        case .awaitingRequest(let first, let since):
            guard now >= since + (first ? timeouts.header : timeouts.keepAliveIdle).timeAmount else { return .none }
            phase = .closing(deadline: now)
            return .close
        case .readingHead(let deadline):
            guard now >= deadline else { return .none }
            phase = .closing(deadline: now + Self.answerGrace)
            return .answerTimeout(.headerTimedOut(limit: timeouts.header))
        case .readingBody(var clock):
            guard clock.waitingSince != nil else { return .none }
            settle(&clock, now: now)
            if clock.waitedSinceBytes >= timeouts.body.timeAmount {
                phase = .closing(deadline: now + Self.answerGrace)
                return .failRequest(.bodyTimedOut(limit: timeouts.body))
            }
            return finishWindow(&clock, now: now)
        case .processing:
            return .none
        case .closing(let deadline):
            return now >= deadline ? .close : .none
        }
    }

    /// Moves the time waited so far into the clock's counters; the wait goes on if one was pending.
    private func settle(_ clock: inout BodyClock, now: NIODeadline) {
        guard let since = clock.waitingSince else { return }
        let waited = now - since
        clock.waitedSinceBytes = clock.waitedSinceBytes + waited
        clock.windowWaited = clock.windowWaited + waited
        clock.waitingSince = now
    }

    /// Ends the rate window when enough waiting has gone into it: too few bytes fail the
    /// request, enough start a new window. Stores the clock back in the phase.
    private mutating func finishWindow(_ clock: inout BodyClock, now: NIODeadline) -> Action {
        let window = timeouts.rateWindow.timeAmount
        if timeouts.minimumBodyRate > 0, clock.windowWaited >= window {
            let needed = Int64(timeouts.minimumBodyRate) * window.nanoseconds / 1_000_000_000
            if clock.windowBytes < needed {
                phase = .closing(deadline: now + Self.answerGrace)
                return .failRequest(
                    .bodyTooSlow(received: clock.windowBytes, window: timeouts.rateWindow, minimumRate: timeouts.minimumBodyRate))
            }
            clock.windowWaited = .zero
            clock.windowBytes = 0
        }
        phase = .readingBody(clock)
        return .none
    }
}
