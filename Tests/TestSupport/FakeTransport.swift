import Dispatch
import Multipart
import Synchronization
import UploadModel
import UploadProtocols

/// An `UploadTransport` that sends nothing: each request gets a scripted reply, and held
/// requests stay in flight until the test resolves them. It records every request, cancels, and
/// the most requests it ever had in flight at once.
///
/// Automatic replies complete asynchronously (on `ferry.tests.fake-transport`), after counting
/// the whole body as sent, as a real transport would; cancelled requests complete with a
/// failure too, which the manager must ignore. Counting the whole body as sent (an automatic
/// reply, `progress` up to the body's length, `sendWholeBody`) first asks the request's
/// `bodyCompleting`, as a real transport does before the last byte: when it says no, the request
/// fails without that count. The manager reads the counts (`bytesWritten`) on its progress tick.
public final class FakeTransport: UploadTransport {
    /// What the fake does with a request.
    public enum Reply: Sendable {
        /// Stay in flight until `respond`, `fail` or a cancel.
        case hold
        /// Report the whole body sent, then answer with this response.
        case respond(status: Int, headers: [HeaderField] = [], body: [UInt8] = [])
        /// Fail with this error without sending anything.
        case fail(UploadError)
    }

    /// A request the fake received.
    public struct Call: Sendable {
        /// Its position among all calls, from 0.
        public let index: Int
        /// The request.
        public let request: UploadRequest
        /// The job it belongs to.
        public var jobID: UploadJobID { request.jobID }
        /// Its attempt.
        public var attempt: Int { request.attempt }
    }

    private struct InFlight {
        let call: Call
        let bodyCompleting: @Sendable () -> Bool
        let completion: @Sendable (Result<UploadResponse, UploadError>) -> Void
        /// Whether `bodyCompleting` was asked.
        var asked = false
    }

    private struct State {
        var calls: [Call] = []
        var inFlight: [Int: InFlight] = [:]
        /// The bytes counted as sent per call.
        var written: [Int: Int64] = [:]
        var maxInFlight = 0
        var cancelled: [Call] = []
        /// Each call's `bodyCompleting`, kept after the call ended.
        var bodyCompleting: [Int: @Sendable () -> Bool] = [:]
    }

    private let state = Mutex(State())
    private let script: @Sendable (UploadRequest, Int) -> Reply
    private let queue = DispatchQueue(label: "ferry.tests.fake-transport")

    /// Whether the manager may start requests whose files are local on any thread (the fake
    /// reads nothing; `script` runs on the thread that called `start`).
    public let startsFromAnyThread: Bool

    /// Creates a fake that replies as `script` says.
    ///
    /// - Parameters:
    ///   - startsFromAnyThread: What the fake answers to `UploadTransport.startsFromAnyThread`.
    ///   - script: The reply for a request and its call index; by default every request is held.
    public init(
        startsFromAnyThread: Bool = false,
        script: @escaping @Sendable (_ request: UploadRequest, _ callIndex: Int) -> Reply = { _, _ in .hold }
    ) {
        self.startsFromAnyThread = startsFromAnyThread
        self.script = script
    }

    /// Creates a fake that answers calls in order with `replies`, then with `otherwise`.
    ///
    /// - Parameters:
    ///   - replies: Replies for the first calls.
    ///   - otherwise: The reply for later calls.
    public convenience init(replies: [Reply], otherwise: Reply = .hold) {
        self.init { _, index in index < replies.count ? replies[index] : otherwise }
    }

    public func start(
        _ request: UploadRequest,
        bodyCompleting: @escaping @Sendable () -> Bool,
        completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void
    ) -> any TransportTask {
        let call = state.withLock { state in
            let call = Call(index: state.calls.count, request: request)
            state.calls.append(call)
            state.inFlight[call.index] = InFlight(call: call, bodyCompleting: bodyCompleting,
                                                  completion: completion)
            state.bodyCompleting[call.index] = bodyCompleting
            state.maxInFlight = max(state.maxInFlight, state.inFlight.count)
            return call
        }
        switch script(request, call.index) {
        case .hold:
            break
        case let .respond(status, headers, body):
            queue.async {
                guard self.progress(call: call.index, bytesSent: request.message.body.contentLength) else { return }
                self.finish(call: call.index, with: .success(UploadResponse(status: status, headers: headers, body: body)))
            }
        case let .fail(error):
            queue.async { self.finish(call: call.index, with: .failure(error)) }
        }
        return FakeTask(transport: self, index: call.index)
    }

    // MARK: - Inspecting

    /// Every request received, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The requests in flight now, in call order.
    public var inFlight: [Call] { state.withLock { $0.inFlight.values.map(\.call).sorted { $0.index < $1.index } } }

    /// The jobs with a request in flight now, in call order.
    public var inFlightJobIDs: [UploadJobID] { inFlight.map(\.jobID) }

    /// The most requests ever in flight at once.
    public var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    /// The requests that were cancelled, in order.
    public var cancelled: [Call] { state.withLock { $0.cancelled } }

    /// Asks a call's `bodyCompleting` now, also after the call was cancelled — as a real
    /// transport whose event loop reaches the last byte while the cancel is on its way would.
    ///
    /// - Parameter index: The call's index.
    /// - Returns: Whether the last byte would be let go.
    public func lastByteAllowed(call index: Int) -> Bool {
        state.withLock { $0.bodyCompleting[index] }?() ?? false
    }

    /// Blocks until automatic replies and cancel completions queued so far were delivered.
    public func waitForPendingReplies() {
        queue.sync {}
    }

    // MARK: - Resolving held requests

    /// Counts bytes sent for a job's request in flight (what its task's `bytesWritten` says).
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - bytesSent: Cumulative bytes sent.
    public func progress(job: UploadJobID, bytesSent: Int64) {
        guard let index = index(of: job) else { return }
        progress(call: index, bytesSent: bytesSent)
    }

    /// Writes a job's whole body as a real transport would: asks its `bodyCompleting`, then
    /// counts every byte sent — or, when it says no, fails the request without the last byte.
    ///
    /// - Parameter job: The job.
    /// - Returns: Whether the last byte was let go.
    @discardableResult
    public func sendWholeBody(job: UploadJobID) -> Bool {
        guard let index = index(of: job) else { return false }
        let length = state.withLock { $0.calls[index].request.message.body.contentLength }
        return progress(call: index, bytesSent: length)
    }

    /// Answers a job's request in flight.
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - status: The status code.
    ///   - headers: The response headers.
    ///   - body: The response body.
    public func respond(job: UploadJobID, status: Int, headers: [HeaderField] = [], body: [UInt8] = []) {
        guard let index = index(of: job) else { return }
        finish(call: index, with: .success(UploadResponse(status: status, headers: headers, body: body)))
    }

    /// Fails a job's request in flight.
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - error: The error.
    public func fail(job: UploadJobID, with error: UploadError) {
        guard let index = index(of: job) else { return }
        finish(call: index, with: .failure(error))
    }

    // MARK: - Internals

    private func index(of job: UploadJobID) -> Int? {
        state.withLock { state in state.inFlight.values.first { $0.call.jobID == job }?.call.index }
    }

    /// Counts bytes sent; reaching the body's length first asks `bodyCompleting`.
    ///
    /// - Returns: False when `bodyCompleting` held the last byte back (the request then failed).
    @discardableResult
    private func progress(call index: Int, bytesSent: Int64) -> Bool {
        let ask = state.withLock { state -> (@Sendable () -> Bool)? in
            guard var entry = state.inFlight[index], !entry.asked,
                  bytesSent >= entry.call.request.message.body.contentLength else { return nil }
            entry.asked = true
            state.inFlight[index] = entry
            return entry.bodyCompleting
        }
        if let ask, !ask() {
            finish(call: index, with: .failure(.transferFailed(reason: .other(message: "the body's last byte was held back"))))
            return false
        }
        state.withLock { $0.written[index] = bytesSent }
        return true
    }

    /// The bytes counted for a call (its task's `bytesWritten`).
    fileprivate func bytesWritten(call index: Int) -> Int64 {
        state.withLock { $0.written[index] ?? 0 }
    }

    private func finish(call index: Int, with result: Result<UploadResponse, UploadError>) {
        let entry = state.withLock { $0.inFlight.removeValue(forKey: index) }
        entry?.completion(result)
    }

    fileprivate func cancel(call index: Int) {
        let entry: InFlight? = state.withLock { state in
            guard let entry = state.inFlight.removeValue(forKey: index) else { return nil }
            state.cancelled.append(entry.call)
            return entry
        }
        guard let entry else { return }
        queue.async { entry.completion(.failure(.transferFailed(reason: .other(message: "cancelled")))) }
    }
}

/// A request of a `FakeTransport`.
private struct FakeTask: TransportTask {
    let transport: FakeTransport
    let index: Int

    var bytesWritten: Int64 {
        transport.bytesWritten(call: index)
    }

    func cancel() {
        transport.cancel(call: index)
    }
}
