import Receiver

/// Receivers for tests that stop one receiver and start another at the same URL (the journal
/// keeps a job's URL, so `--resume` must find a server there).
///
/// The port is picked below Linux's ephemeral range (32768–60999): a port-0 one comes from that
/// range, and once its receiver stops, a concurrent test's outgoing connection can take it as
/// its local port, so the second receiver cannot bind it ("Address already in use").
enum RestartablePort {
    /// Starts a receiver on a free port between 20000 and 31999 (`configuration.port` is
    /// ignored); start the next one with the returned server's `port`.
    static func startReceiver(_ configuration: ReceiverConfiguration) async throws -> ReceiverServer {
        var configuration = configuration
        var lastError: ReceiverError?
        for _ in 0..<50 {
            configuration.port = Int.random(in: 20_000..<32_000)
            do {
                return try await ReceiverServer.start(configuration)
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }
}
