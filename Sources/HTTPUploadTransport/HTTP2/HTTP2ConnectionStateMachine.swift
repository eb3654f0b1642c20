/// What an HTTP/2 connection's frames and streams mean for the pool, without I/O (NIO style):
/// the server's first SETTINGS makes the connection ready with a stream capacity, a later one
/// that changes `SETTINGS_MAX_CONCURRENT_STREAMS` changes it, GOAWAY sends it away, and the idle
/// timer runs only while no stream is open. `HTTP2ConnectionWatcher` carries the actions out.
struct HTTP2ConnectionStateMachine: Sendable {
    /// What the watcher must do.
    enum Action: Sendable, Equatable {
        /// Nothing.
        case none
        /// The connection is ready for the pool, carrying at most this many streams at once.
        case ready(streamCapacity: Int)
        /// Tell the pool the connection now carries at most this many streams at once.
        case changeStreamCapacity(Int)
        /// Tell the pool the server sent GOAWAY: no new streams.
        case goAway
        /// Start the idle timer (again, from now).
        case scheduleIdleClose
        /// Stop the idle timer.
        case cancelIdleClose
        /// Close the connection: it carried no stream for the pool's idle time.
        case close
        /// The connection closed before the server's first SETTINGS: it never was ready.
        case failReady
    }

    private enum State: Sendable, Equatable {
        /// Waiting for the server's first SETTINGS.
        case starting
        /// Ready, taking this many streams at once.
        case active(streamCapacity: Int)
        case closed
    }

    /// The most streams Ferry opens on one connection, whatever the server allows.
    static let maximumStreams = 100

    private var state = State.starting
    private var openStreams: Set<Int> = []
    /// The last stream the server may have processed, once it sent GOAWAY.
    private(set) var goAwayLastStreamID: Int?

    /// Creates the machine of a connection whose HTTP/2 handlers were just added.
    init() {}

    /// The handlers are in place, no stream is open yet: the idle time starts.
    mutating func added() -> Action {
        openStreams.isEmpty && state != .closed ? .scheduleIdleClose : .none
    }

    /// The server sent SETTINGS (not an acknowledgement).
    ///
    /// - Parameter maximumConcurrentStreams: Its `SETTINGS_MAX_CONCURRENT_STREAMS`, nil when the
    ///   frame does not change it (unlimited at first, RFC 9113 6.5.2).
    mutating func settingsReceived(maximumConcurrentStreams: Int?) -> Action {
        switch state {
        case .starting:
            let capacity = Self.capacity(maximumConcurrentStreams ?? Self.maximumStreams)
            state = .active(streamCapacity: capacity)
            return .ready(streamCapacity: capacity)
        case let .active(current):
            guard let maximumConcurrentStreams, Self.capacity(maximumConcurrentStreams) != current else { return .none }
            let capacity = Self.capacity(maximumConcurrentStreams)
            state = .active(streamCapacity: capacity)
            return .changeStreamCapacity(capacity)
        case .closed:
            return .none
        }
    }

    /// A stream was created: the connection is not idle until every stream has closed.
    mutating func streamOpened(_ id: Int) -> Action {
        let wasIdle = openStreams.isEmpty
        openStreams.insert(id)
        return wasIdle && state != .closed ? .cancelIdleClose : .none
    }

    /// A stream closed; the idle time starts when it was the last one open.
    mutating func streamClosed(_ id: Int) -> Action {
        guard openStreams.remove(id) != nil, openStreams.isEmpty, state != .closed else { return .none }
        return .scheduleIdleClose
    }

    /// The idle timer fired.
    mutating func idleTimeoutFired() -> Action {
        openStreams.isEmpty && state != .closed ? .close : .none
    }

    /// The server sent GOAWAY with `lastStreamID`: streams above the lowest it sent were not
    /// processed.
    mutating func goAwayReceived(lastStreamID: Int) -> Action {
        goAwayLastStreamID = min(goAwayLastStreamID ?? lastStreamID, lastStreamID)
        return state == .closed ? .none : .goAway
    }

    /// The connection closed.
    mutating func closed() -> Action {
        let wasStarting = state == .starting
        state = .closed
        return wasStarting ? .failReady : .cancelIdleClose
    }

    /// A stream capacity between 1 and `maximumStreams`: a server's 0 is taken as 1 (the pool
    /// hands a stream over only below its capacity; the server's refusal then re-sends it).
    private static func capacity(_ advertised: Int) -> Int {
        max(1, min(maximumStreams, advertised))
    }
}
