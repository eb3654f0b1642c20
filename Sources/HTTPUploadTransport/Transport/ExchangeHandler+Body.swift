import Multipart
import NIOCore
import NIOHTTP1
import UploadModel

/// Writing the request: the head's body from the `BodyPump`, one write in flight (a chunk, or on
/// plain TCP a file region `sendfile` sends), the request's end with the last byte. Progress is
/// what the peer acknowledged of the bytes written (`TCPSendQueue`, read after each completed
/// write and every `acknowledgementPollInterval` while written bytes wait), so a server that reads
/// slowly shows its own pace and 100 % means its machine holds the last byte; an HTTP/2 stream,
/// which shares its socket, and a small body sent with its head in one write
/// (`tracksAcknowledgement`) count completed writes. A region's file handle is closed once its
/// write completed or failed, or when it is not written at all.
extension ExchangeHandler {
    /// Reads the next body chunk for the running exchange, if it still sends its body.
    func sendNextChunk() {
        guard let running, !running.machine.isFinished, let context else { return }
        let generation = running.generation
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        running.request.pump.next(on: context.eventLoop, fileRegions: sendsFileRegions) { result in
            handler.value.chunkRead(result, generation: generation)
        }
    }

    private func chunkRead(_ result: Result<IOData?, MultipartError>, generation: Int) {
        guard let running, running.generation == generation, let context else {
            if case let .success(chunk?) = result { chunk.closeFileHandle() }
            return
        }
        switch result {
        case let .failure(error):
            // Also after the last byte went out: the file changed while it was read.
            act(self.running?.machine.bodyFailed(error))
        case .success(nil):
            // The reader's final check passed; the end went out with the last byte, or (an
            // empty body) goes out now.
            guard !running.endWritten, running.machine.isSendingBody else { return }
            guard running.request.bodyCompleting() else { return holdBackLastByte() }
            writeEnd(context: context, generation: generation)
        case let .success(chunk?):
            guard running.machine.isSendingBody else { return chunk.closeFileHandle() }
            let count = chunk.readableBytes
            if running.bytesQueued + Int64(count) == running.request.bodyLength, !running.request.bodyCompleting() {
                chunk.closeFileHandle()
                return holdBackLastByte()
            }
            self.running?.bytesQueued += Int64(count)
            let promise = context.eventLoop.makePromise(of: Void.self)
            context.write(wrapOutboundOut(.body(chunk)), promise: promise)
            promise.futureResult.assumeIsolated().whenComplete { result in
                chunk.closeFileHandle()
                self.chunkWritten(count, result: result, generation: generation)
            }
            if self.running?.bytesQueued == running.request.bodyLength {
                // The last byte: the request's end goes out in the same flush, so the exchange
                // knows the request is complete before any answer can arrive (and can reuse the
                // connection). The pump still reads on, for the reader's final check.
                writeEnd(context: context, generation: generation)
            } else {
                context.flush()
            }
        }
    }

    /// Ends the exchange without the body's last byte, which its request's `bodyCompleting`
    /// held back (the transfer was cancelled, or could not be recorded): the connection closes,
    /// so the server never has the whole request.
    private func holdBackLastByte() {
        act(running?.machine.failed(.other(message: "the body's last byte was held back"), connectionDropped: false))
    }

    private func writeEnd(context: ChannelHandlerContext, generation: Int) {
        running?.endWritten = true
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: promise)
        promise.futureResult.assumeIsolated().whenComplete { result in
            guard self.running?.generation == generation else { return }
            switch result {
            case .success:
                self.act(self.running?.machine.bodyEnded())
                self.reportAcknowledged()
            case let .failure(error):
                if TransferErrorMapping.isPeerReset(error) { self.running?.machine.connectionReset() }
                self.act(self.running?.machine.bodyWriteFailed(Self.describe(error)))
            }
        }
    }

    private func chunkWritten(_ count: Int, result: Result<Void, any Error>, generation: Int) {
        guard running?.generation == generation else { return }
        switch result {
        case .success:
            running?.machine.bodyPartWritten(count)
            running?.lastActivity = .now()
            reportAcknowledged()
            sendNextChunk()
        case let .failure(error):
            if TransferErrorMapping.isPeerReset(error) { running?.machine.connectionReset() }
            act(running?.machine.bodyWriteFailed(Self.describe(error)))
        }
    }

    /// Reports the body bytes the peer acknowledged, if more than before, and looks again in
    /// `acknowledgementPollInterval` while some bytes handed to the channel wait for it. On plain
    /// TCP they are the stream's acknowledged bytes after the head (exact, a file region's partly
    /// written bytes included); over TLS the completed writes less what the socket holds
    /// unacknowledged (its records are larger than their bytes: never more than the truth); on
    /// an HTTP/2 stream, which shares its socket, the completed writes.
    func reportAcknowledged() {
        guard let current = running, !current.machine.isFinished, let context else { return }
        let handed = current.bytesQueued
        var acknowledged = current.machine.bytesSent
        let tracks = Self.tracksAcknowledgement(of: current.request)
        if tracks, let queue = TCPSendQueue.current(of: context.channel) {
            if let (offset, headLength) = current.streamStart {
                acknowledged = min(handed, max(0, queue.acknowledgedBytes - offset - headLength))
            } else {
                acknowledged = max(0, acknowledged - queue.unacknowledgedBytes)
            }
        }
        if acknowledged > current.acknowledged {
            running?.acknowledged = acknowledged
            current.request.wrote(acknowledged)
        }
        guard tracks, max(acknowledged, current.acknowledged) < handed, current.acknowledgementPoll == nil else { return }
        let generation = current.generation
        running?.acknowledgementPoll = context.eventLoop.assumeIsolated().scheduleTask(in: Self.acknowledgementPollInterval) {
            guard self.running?.generation == generation else { return }
            self.running?.acknowledgementPoll = nil
            self.reportAcknowledged()
        }
    }

    private static func describe(_ error: any Error) -> String {
        "sending the body failed: " + TransferErrorMapping.message(for: error)
    }
}
