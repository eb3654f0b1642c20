import NIOCore

/// Lets a connection's reads grow to ``maximum`` bytes (NIO's default allocator stops at
/// 64 KiB), so a fast upload's body arrives in a quarter as many reads, each one pass through
/// the pipeline and one element of the request's body stream; a slow connection's reads never
/// fill their buffer, so they stay small (the allocator grows a buffer only after it was filled).
/// 256 KiB, not more: the request's body stream holds several reads, so a fast connection's
/// memory grows with the read size (1 MiB took a 1 GiB multipart upload's peak from 27 to 44 MiB,
/// for 0.1–0.2 CPU-s per GiB less than 256 KiB; Benchmarks/RESULTS.md).
///
/// Sets the option as it is added, then passes everything through. Must be used on its
/// channel's event loop only (NIO handlers are).
final class ReceiveBufferSizing: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// The largest read.
    static let maximum = 256 * 1024

    func handlerAdded(context: ChannelHandlerContext) {
        let allocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: Self.maximum)
        try? context.channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: allocator)
    }
}
