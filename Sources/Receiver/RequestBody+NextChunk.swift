import Hummingbird
import NIOCore

extension RequestBody.AsyncIterator {
    /// The request body's next chunk, its failures as the receiver names them.
    ///
    /// - Parameters:
    ///   - received: The body bytes read so far (for the error).
    ///   - expected: The body's announced length, if any (for the error).
    /// - Returns: The chunk, or nil at the body's end.
    /// - Throws: A timeout of `ConnectionTimeoutHandler` (408) as it came, and
    ///   `ReceiverError.requestRejected(reason: .truncatedBody)` when the connection ended (or
    ///   broke) before the body was complete.
    mutating func nextChunk(received: Int64, expected: Int64?) async throws(ReceiverError) -> ByteBuffer? {
        do {
            return try await next()
        } catch let error as ReceiverError {
            throw error
        } catch {
            throw .requestRejected(reason: .truncatedBody(received: received, expected: expected))
        }
    }
}
