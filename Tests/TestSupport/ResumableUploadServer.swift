import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTP2
import NIOHTTPTypesHTTP1
import NIOHTTPTypesHTTP2
import NIOPosix
import NIOResumableUpload
import NIOSSL
import Synchronization

/// A resumable-upload server no one here wrote: SwiftNIO's `NIOResumableUpload`
/// (`draft-ietf-httpbis-resumable-upload`, interop versions 3, 5 and 6) in front of a sink that
/// keeps each request it passes on, on 127.0.0.1 in the test's process, as SwiftNIO's own demo
/// server wires it. The sink sees one request per upload, however many connections brought it.
///
/// With `cutAfter`, the first connection that brings more than that many bytes is closed by the
/// server mid-body, as a dropped link would end it; with `stallAfter`, the first connection stops
/// being read once it brought that many, so its client stays mid-body. Over TLS (`http2Over`) it
/// speaks HTTP/2 only (ALPN `h2`), each stream a request, as SwiftNIO's HTTP/2 servers wire it.
package final class ResumableUploadServer: Sendable {
    /// A request the sink received.
    package struct Received: Sendable {
        /// Its head, as `NIOResumableUpload` passed it on.
        package var head: HTTPRequest
        /// Its body so far.
        package var body: [UInt8] = []
        /// Whether its end arrived.
        package var complete = false
        /// Whether `NIOResumableUpload` ended it without its end (a cancellation, a timeout).
        package var abandoned = false
    }

    /// The server's port.
    package let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let sink: SinkRecords
    private let cutter: Cutter

    /// `http://127.0.0.1:PORT`, or `https://` over TLS.
    package let baseURL: String

    /// The requests the sink received, in order.
    package var received: [Received] { sink.records.withLock { $0 } }

    /// Every byte clients sent, over every connection.
    package var totalBytesIn: Int { cutter.total.withLock { $0 } }

    private init(port: Int, baseURL: String, group: MultiThreadedEventLoopGroup, channel: any Channel, sink: SinkRecords,
                 cutter: Cutter) {
        self.port = port
        self.baseURL = baseURL
        self.group = group
        self.channel = channel
        self.sink = sink
        self.cutter = cutter
    }

    /// Starts a server on a free port of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - cutAfter: Close the first connection that brings more than this many bytes.
    ///   - stallAfter: Stop reading the first connection once it brought this many bytes.
    ///   - tls: A certificate and key (PEM files): then TLS and HTTP/2 only, over ALPN.
    /// - Returns: The running server; call ``shutdown()``.
    package static func start(cutAfter: Int? = nil, stallAfter: Int? = nil, http2Over tls: (certificate: String, key: String)? = nil)
        async throws -> ResumableUploadServer {
        let secure = try tls.map { tls in
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(tls.certificate).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: tls.key, format: .pem))
            )
            configuration.applicationProtocols = ["h2"]
            return try NIOSSLContext(configuration: configuration)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let sink = SinkRecords()
        let counter = Cutter(after: cutAfter, stallAfter: stallAfter)
        let context = Mutex<HTTPResumableUploadContext?>(nil)
        var bootstrap = ServerBootstrap(group: group).serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        if stallAfter != nil {
            // A stalled connection holds what the kernel buffers for it. A receive buffer that is
            // set (one the kernel does not grow as reads go, up to `tcp_rmem`'s maximum, 32 MiB
            // here) keeps what a client can hand over within a few MiB, so it stays mid-body.
            bootstrap = bootstrap.serverChannelOption(.socketOption(.so_rcvbuf), value: 256 << 10)
        }
        let channel = try await bootstrap
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let uploads = context.withLock({ $0 }) else { throw ChannelError.ioOnClosedChannel }
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(CuttingHandler(counter))
                    let resumable = { HTTPResumableUploadHandler(context: uploads) { upload in
                        try? upload.pipeline.syncOperations.addHandler(UploadSink(sink))
                    } }
                    guard let secure else {
                        try operations.configureHTTPServerPipeline()
                        try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try operations.addHandler(resumable())
                        return
                    }
                    try operations.addHandler(NIOSSLServerHandler(context: secure))
                    _ = try operations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTPServerCodec())
                            try stream.pipeline.syncOperations.addHandler(resumable())
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        let baseURL = "\(secure == nil ? "http" : "https")://127.0.0.1:\(port)"
        context.withLock { $0 = HTTPResumableUploadContext(origin: baseURL) }
        return ResumableUploadServer(port: port, baseURL: baseURL, group: group, channel: channel, sink: sink, cutter: counter)
    }

    /// Closes the listening socket and stops the event loop.
    package func shutdown() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }
}

/// The sink's requests, shared by every upload's sink handler.
private final class SinkRecords: Sendable {
    package let records = Mutex<[ResumableUploadServer.Received]>([])
}

/// Counts the bytes clients send and picks the connection to cut.
private final class Cutter: Sendable {
    package let total = Mutex(0)
    private let after: Int?
    /// Stop reading the first connection once it brought this many bytes.
    package let stallAfter: Int?
    private let cut = Mutex(false)
    private let connections = Mutex(0)

    package init(after: Int?, stallAfter: Int?) {
        self.after = after
        self.stallAfter = stallAfter
    }

    /// Numbers a new connection, from 0.
    package func connectionOpened() -> Int {
        connections.withLock { count in
            defer { count += 1 }
            return count
        }
    }

    /// Counts `count` more bytes of a connection that brought `connectionBytes` with them.
    ///
    /// - Returns: Whether the connection is to be closed now.
    package func arrived(_ count: Int, connectionBytes: Int) -> Bool {
        total.withLock { $0 += count }
        guard let after, connectionBytes > after else { return false }
        return cut.withLock { cut in
            defer { cut = true }
            return !cut
        }
    }
}

/// First in each connection's pipeline: counts what arrives, closes the connection the
/// `Cutter` picks (the bytes that crossed the line are not passed on), stops reading one that
/// brought the `Cutter`'s `stallAfter`.
private final class CuttingHandler: ChannelDuplexHandler, Sendable {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer
    package typealias OutboundIn = ByteBuffer

    private let cutter: Cutter
    private let connectionBytes = Mutex(0)
    /// The connection's number, from 0.
    private let number: Int

    package init(_ cutter: Cutter) {
        self.cutter = cutter
        number = cutter.connectionOpened()
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let count = unwrapInboundIn(data).readableBytes
        let seen = connectionBytes.withLock { bytes in
            bytes += count
            return bytes
        }
        if cutter.arrived(count, connectionBytes: seen) {
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }

    /// Passes a read on unless this is the first connection and it brought `stallAfter` bytes
    /// (`NIOResumableUpload` asks for reads itself, whatever `autoRead` says).
    package func read(context: ChannelHandlerContext) {
        if number == 0, let stall = cutter.stallAfter, connectionBytes.withLock({ $0 }) >= stall { return }
        context.read()
    }
}

/// The application behind `NIOResumableUpload`: keeps the request and answers `201` with the
/// number of bytes it got, as an upload endpoint would.
private final class UploadSink: ChannelInboundHandler, Sendable {
    package typealias InboundIn = HTTPRequestPart
    package typealias OutboundOut = HTTPResponsePart

    private let sink: SinkRecords
    private let index = Mutex<Int?>(nil)

    package init(_ sink: SinkRecords) {
        self.sink = sink
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            let position = sink.records.withLock { records in
                records.append(.init(head: head))
                return records.count - 1
            }
            index.withLock { $0 = position }
        case let .body(buffer):
            guard let position = index.withLock({ $0 }) else { return }
            sink.records.withLock { $0[position].body += buffer.readableBytesView }
        case .end:
            guard let position = index.withLock({ $0 }) else { return }
            let count = sink.records.withLock { records in
                records[position].complete = true
                return records[position].body.count
            }
            let answer = ByteBuffer(string: "{\"stored\":\(count)}")
            var response = HTTPResponse(status: .created)
            response.headerFields[.contentType] = "application/json"
            response.headerFields[.contentLength] = String(answer.readableBytes)
            context.write(wrapOutboundOut(.head(response)), promise: nil)
            context.write(wrapOutboundOut(.body(answer)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    package func channelInactive(context: ChannelHandlerContext) {
        if let position = index.withLock({ $0 }) {
            sink.records.withLock { records in
                if !records[position].complete { records[position].abandoned = true }
            }
        }
        context.fireChannelInactive()
    }
}
