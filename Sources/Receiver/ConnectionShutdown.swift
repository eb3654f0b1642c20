import NIOCore
import Glibc

/// A handler in each connection's pipeline that makes closing the connection end it for every
/// process holding a copy of its socket, not just close NIO's descriptor.
///
/// NIO accepts connections without close-on-exec (see ``ListeningSocket``), so a process
/// spawned while a connection is open can get a copy of its socket. Foundation's `Process` is
/// one way: on Linux it lists the open descriptors, then spawns the child with every listed one
/// closed, so a connection accepted in between stays open in the child. Closing NIO's
/// descriptor then leaves the connection open until that process exits: a test's client,
/// answered 413, saw the connection stay open for as long as another test's child ran.
/// `shutdown(2)` acts on the socket instead: the peer gets its FIN after what was written,
/// whoever else holds the socket, and data the peer sends after that is answered with a reset.
///
/// The handler takes a close-on-exec duplicate of the connection's descriptor (found by its
/// local and peer addresses, through ``SocketDescriptors``) when the connection starts. A full
/// close passing through the pipeline (Hummingbird's after a response it was asked to close
/// after, ``UploadHandler``'s drop, a shutdown's ``ConnectionRegistry/closeAll()``) shuts the
/// socket down before NIO closes its descriptor; after a close NIO makes by itself (a reset, an
/// error) it is shut down once the channel is inactive. Then the duplicate is closed. The
/// handler runs on the channel's event loop.
final class ConnectionShutdown: ChannelDuplexHandler, RemovableChannelHandler {
    // Reads and writes pass through untouched (the default `channelRead` and `write` forward
    // them), so their types are never looked at.
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny

    /// The duplicate, from the start of the connection until it is shut down.
    private var descriptor: Int32?

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive {
            adopt(context.channel)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release(shuttingDown: false)
    }

    func channelActive(context: ChannelHandlerContext) {
        adopt(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release(shuttingDown: true)
        context.fireChannelInactive()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        // NIO half-closes (`.input`, `.output`) with `shutdown(2)` itself.
        if mode == .all {
            release(shuttingDown: true)
        }
        context.close(mode: mode, promise: promise)
    }

    /// Takes the duplicate, once; without one (no descriptor listing, say) closing is NIO's alone.
    private func adopt(_ channel: any Channel) {
        guard descriptor == nil, let local = channel.localAddress, let peer = channel.remoteAddress else { return }
        descriptor = SocketDescriptors.duplicate(where: {
            SocketDescriptors.isBound($0, to: local) && SocketDescriptors.isConnected($0, to: peer)
        })
    }

    /// Closes the duplicate, shutting the socket down first when `shuttingDown`.
    private func release(shuttingDown: Bool) {
        guard let taken = descriptor else { return }
        descriptor = nil
        if shuttingDown {
            _ = shutdown(taken, Int32(SHUT_RDWR))
        }
        closeDescriptor(taken)
    }
}

/// `close(2)`, out of reach of the handler's `close(context:mode:promise:)`.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
