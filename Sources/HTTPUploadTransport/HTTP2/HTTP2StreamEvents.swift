import NIOCore
import NIOHTTP2

/// Tells an `HTTP2ConnectionWatcher` when its connection's streams are created and closed: the
/// delegate NIO's inline stream multiplexer calls (on the connection's event loop) instead of
/// passing those events down the pipeline.
struct HTTP2StreamEvents: NIOHTTP2StreamDelegate {
    private let watcher: NIOLoopBound<HTTP2ConnectionWatcher>

    /// Creates the delegate for `watcher`, whose connection runs on `eventLoop`.
    init(_ watcher: HTTP2ConnectionWatcher, eventLoop: any EventLoop) {
        self.watcher = NIOLoopBound(watcher, eventLoop: eventLoop)
    }

    func streamCreated(_ id: HTTP2StreamID, channel: any Channel) {
        watcher.value.streamOpened(id)
    }

    func streamClosed(_ id: HTTP2StreamID, channel: any Channel) {
        watcher.value.streamClosed(id)
    }
}
