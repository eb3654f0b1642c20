import AsyncHTTPClient
import Dispatch
import Multipart
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// One request in flight on `AsyncHTTPClientTransport`: it streams the body, counts what the
/// socket took, captures the response, watches for idleness and maps the outcome.
///
/// All mutable state is in a `Mutex`; AsyncHTTPClient calls the delegate methods on the request's
/// event loop, the body is read on `readQueue`, and the watchdog runs on its own timer.
final class TransferAttempt: HTTPClientResponseDelegate, TransportTask {
    typealias Response = UploadResponse

    private struct State {
        var task: HTTPClient.Task<UploadResponse>?
        var readers: [MultipartBodyReader] = []
        var bytesSent: Int64 = 0
        var lastActivity = DispatchTime.now()
        var status = 0
        var headers: [HeaderField] = []
        var body: [UInt8] = []
        var isBodyTruncated = false
        var bodyError: MultipartError?
        var idleTimedOut = false
        var cancelled = false
        var finished = false
    }

    private let body: MultipartBody
    private let chunkSize: Int
    private let progress: @Sendable (Int64) -> Void
    private let readQueue = DispatchQueue(label: "ferry.uploading.body-read")
    /// The event loop the request's delegate calls and the body stream's futures run on.
    let eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    private let state = Mutex(State())

    init(body: MultipartBody, chunkSize: Int, progress: @escaping @Sendable (Int64) -> Void) {
        self.body = body
        self.chunkSize = chunkSize
        self.progress = progress
    }

    /// Records the task and starts the idle watchdog.
    func begin(task: HTTPClient.Task<UploadResponse>, idleTimeout: Duration) {
        let cancelNow = state.withLock { state in
            state.task = task
            state.lastActivity = .now()
            return state.cancelled
        }
        if cancelNow { task.cancel() }
        let tick = DispatchTimeInterval.nanoseconds(Int(min(idleTimeout, .seconds(1)).nanoseconds))
        watchIdleness(limit: idleTimeout, every: tick)
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Maps the request's result to the transport's outcome and releases the files and the timer.
    func finish(_ result: Result<UploadResponse, any Error>) -> Result<UploadResponse, UploadError> {
        let (readers, bodyError, idle) = state.withLock { state in
            defer { state.readers = []; state.finished = true }
            return (state.readers, state.bodyError, state.idleTimedOut)
        }
        readers.forEach { $0.close() }
        switch result {
        case let .success(response):
            return .success(response)
        case let .failure(error):
            if let bodyError { return .failure(.multipartFailed(bodyError)) }
            if idle { return .failure(.transferFailed(reason: .idleTimedOut)) }
            return .failure(.transferFailed(reason: Self.reason(for: error)))
        }
    }

    // MARK: Body

    /// Streams the body: reads a chunk on `readQueue`, hands it to the writer, reads the next
    /// while the previous one is being written. Called by AsyncHTTPClient once per send.
    func streamBody(to writer: HTTPClient.Body.StreamWriter) -> EventLoopFuture<Void> {
        let reader = body.makeReader(chunkSize: chunkSize)
        state.withLock { $0.readers.append(reader) }
        let done = eventLoop.makePromise(of: Void.self)
        readQueue.async { self.pump(reader, next: nil, writer: writer, done: done) }
        return done.futureResult
    }

    private func pump(_ reader: MultipartBodyReader, next: ByteBuffer?, writer: HTTPClient.Body.StreamWriter,
                      done: EventLoopPromise<Void>) {
        do throws(MultipartError) {
            var current = next
            if current == nil { current = try readChunk(reader) }
            guard let chunk = current else {
                done.succeed(())
                return
            }
            let written = writer.write(.byteBuffer(chunk))
            guard let following = try readChunk(reader) else {
                // The last write: finish the body stream the moment it completes, on the event
                // loop. A hop to another queue first would let a fast server's response arrive
                // before the stream ends, and AsyncHTTPClient then never returns the connection
                // to its pool.
                written.cascade(to: done)
                return
            }
            written.whenComplete { result in
                switch result {
                case .success:
                    self.readQueue.async { self.pump(reader, next: following, writer: writer, done: done) }
                case let .failure(error):
                    done.fail(error)
                }
            }
        } catch {
            state.withLock { $0.bodyError = error }
            done.fail(error)
        }
    }

    private func readChunk(_ reader: MultipartBodyReader) throws(MultipartError) -> ByteBuffer? {
        var buffer = ByteBufferAllocator().buffer(capacity: chunkSize)
        let count = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunkSize) {
            (space: UnsafeMutableRawBufferPointer) throws(MultipartError) -> Int in
            try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: space.prefix(chunkSize)))
        }
        return count == 0 ? nil : buffer
    }

    // MARK: Delegate

    func didSendRequestPart(task: HTTPClient.Task<UploadResponse>, _ part: IOData) {
        let total = state.withLock { state in
            state.bytesSent += Int64(part.readableBytes)
            state.lastActivity = .now()
            return state.bytesSent
        }
        progress(total)
    }

    func didReceiveHead(task: HTTPClient.Task<UploadResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock { state in
            state.status = Int(head.status.code)
            state.headers = head.headers.map { HeaderField(name: $0.name, value: $0.value) }
            state.lastActivity = .now()
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<UploadResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        state.withLock { state in
            state.lastActivity = .now()
            let room = UploadResponse.maximumCapturedBodyBytes - state.body.count
            if buffer.readableBytes > room { state.isBodyTruncated = true }
            if room > 0 { state.body += buffer.readableBytesView.prefix(room) }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<UploadResponse>) throws -> UploadResponse {
        state.withLock { state in
            UploadResponse(status: state.status, headers: state.headers, body: state.body,
                           isBodyTruncated: state.isBodyTruncated)
        }
    }

    // MARK: Idle watchdog and errors

    /// Checks every `tick` whether bytes moved within `limit`; cancels the request when not.
    /// Stops once the attempt has finished or timed out.
    private func watchIdleness(limit: Duration, every tick: DispatchTimeInterval) {
        readQueue.asyncAfter(deadline: .now() + tick) { [weak self] in
            guard let self else { return }
            let (expired, keepWatching, task) = self.state.withLock { state in
                let idle = Duration.nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - state.lastActivity.uptimeNanoseconds))
                let expired = !state.finished && idle >= limit
                if expired { state.idleTimedOut = true }
                return (expired, !state.finished && !expired, state.task)
            }
            if expired { task?.cancel() }
            if keepWatching { self.watchIdleness(limit: limit, every: tick) }
        }
    }

    private static func reason(for error: any Error) -> UploadError.TransferReason {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return .connectTimedOut
            case .remoteConnectionClosed, .bodyLengthMismatch: return .connectionLost(message: String(describing: error))
            default: return .other(message: String(describing: error))
            }
        }
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
            return .tlsFailed(message: String(describing: error))
        }
        if let error = error as? NIOConnectionError {
            return .connectFailed(message: error.connectionErrors.first.map { String(describing: $0.error) } ?? "connection failed")
        }
        if error is IOError || error is ChannelError {
            return .connectionLost(message: String(describing: error))
        }
        return .other(message: String(describing: error))
    }
}
