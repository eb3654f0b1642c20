import UploadModel

/// What the machine keeps about an endpoint while it is paused: the pause as consumers see it,
/// and the jobs set aside meanwhile.
struct PausedEndpoint: Sendable {
    /// Why it is paused.
    var pause = EndpointPause()
    /// The jobs set aside while it is paused, each with the ticket it still waits under (a job
    /// cancelled, removed or retried meanwhile no longer has it, and is skipped on release).
    var setAside: [(id: UploadJobID, ticket: Int)] = []
}
