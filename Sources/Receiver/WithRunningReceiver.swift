/// Runs `body` against a freshly started receiver and always stops it afterwards.
///
/// The usual way for tests of other modules to get a real upload endpoint:
/// ```swift
/// try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: tempDir)) { server in
///     // upload to "\(server.baseURL)/upload", then check server.receivedUploads
/// }
/// ```
/// - Parameters:
///   - configuration: Address, directory, limits and faults; use port 0 in tests.
///   - isolation: The caller's actor, inherited so `body` need not be `Sendable`.
///   - body: Runs while the server listens; gets the running server.
/// - Returns: What `body` returns.
/// - Throws: ``ReceiverError`` when the server cannot start, or what `body` throws.
public func withRunningReceiver<T>(
    _ configuration: ReceiverConfiguration,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ReceiverServer) async throws -> T
) async throws -> T {
    let server = try await ReceiverServer.start(configuration)
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
