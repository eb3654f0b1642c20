import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Carries out a ``ConnectionTimeoutStateMachine`` for one connection: sits in the pipeline
/// after the HTTP codec, tells the machine what passes (request parts, completed reads, reads
/// asked for, the answer's end, writability) and acts at the machine's deadlines.
///
/// A late request head is answered 408 here (no request exists yet for the server to answer);
/// a late or too slow body is failed by firing the timeout's ``ReceiverError`` down the pipeline,
/// which ends the request's body stream with it, so the upload handler answers 408 and removes
/// its partial files. Must be used on its channel's event loop only (NIO handlers are).
final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeouts: ReceiverTimeouts
    private var machine: ConnectionTimeoutStateMachine?
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?

    /// Creates the handler for one connection.
    ///
    /// - Parameter timeouts: The limits.
    init(timeouts: ReceiverTimeouts) {
        self.timeouts = timeouts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        machine = ConnectionTimeoutStateMachine(timeouts: timeouts, now: .now())
        schedule(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        machine = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = NIODeadline.now()
        var action = ConnectionTimeoutStateMachine.Action.none
        switch unwrapInboundIn(data) {
        case .head: machine?.headReceived(now: now)
        case .body(let buffer): action = machine?.bodyReceived(count: buffer.readableBytes, now: now) ?? .none
        case .end: machine?.endReceived(now: now)
        }
        context.fireChannelRead(data)
        perform(action, context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        machine?.bytesArrived(now: .now())
        schedule(context)
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        machine?.readRequested(now: .now())
        schedule(context)
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            machine?.answerEnded(now: .now())
            schedule(context)
        }
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        machine?.writabilityChanged(isWritable: context.channel.isWritable, now: .now())
        schedule(context)
        context.fireChannelWritabilityChanged()
    }

    private func perform(_ action: ConnectionTimeoutStateMachine.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .close:
            context.close(promise: nil)
        case .answerTimeout(let reason):
            let error = ReceiverError.requestRejected(reason: reason)
            let body = ByteBuffer(string: JSONBody.encode(["error": error.description]) + "\n")
            let head = HTTPResponse(
                status: .requestTimeout,
                headerFields: [
                    .connection: "close", .contentType: "application/json; charset=utf-8",
                    .contentLength: String(body.readableBytes),
                ])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        case .failRequest(let reason):
            context.fireErrorCaught(ReceiverError.requestRejected(reason: reason))
        }
        schedule(context)
    }

    /// Makes sure a timer fires at the machine's next deadline or earlier (a timer that fires
    /// early finds nothing to do and is set again).
    private func schedule(_ context: ChannelHandlerContext) {
        guard let deadline = machine?.nextDeadline else { return }
        if let timerDeadline, timerDeadline <= deadline { return }
        cancelTimer()
        timerDeadline = deadline
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            timerDeadline = nil
            guard let action = machine?.deadlineReached(now: .now()) else { return }
            perform(action, context: context)
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerDeadline = nil
    }
}
