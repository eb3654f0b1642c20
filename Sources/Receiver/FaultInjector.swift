import Synchronization

/// The mutable side of a ``FaultPlan``: the random generator and the attempts counted per filename.
///
/// Shared by all requests of one server; its state lives in a `Mutex`, so it is `Sendable`.
final class FaultInjector: Sendable {
    /// The plan this injector carries out.
    let plan: FaultPlan

    private struct State {
        var generator: SplitMix64
        var attemptsByFilename: [String: Int] = [:]
    }

    private let state: Mutex<State>

    /// Creates an injector for `plan`, seeding from `plan.seed` or from the system generator.
    ///
    /// - Parameter plan: The faults to inject.
    init(plan: FaultPlan) {
        self.plan = plan
        var system = SystemRandomNumberGenerator()
        let seed = plan.seed ?? system.next()
        self.state = Mutex(State(generator: SplitMix64(seed: seed)))
    }

    /// Decides whether this request's connection is dropped part-way through the body.
    ///
    /// Draws from the generator only when the drop rate is above 0.
    /// - Returns: `true` to drop the connection.
    func shouldDropConnection() -> Bool {
        draw(probability: plan.dropRate)
    }

    /// Decides whether this request gets a random 500.
    ///
    /// Draws from the generator only when the fail rate is above 0.
    /// - Returns: `true` to fail the request.
    func shouldFailRandomly() -> Bool {
        draw(probability: plan.failRate)
    }

    /// Counts one more attempt for `filename` and says whether it is one of the first `failFirst`.
    ///
    /// - Parameter filename: The filename as the client sent it.
    /// - Returns: The attempt number if this attempt must fail, otherwise `nil`.
    func recordAttempt(filename: String) -> Int? {
        guard plan.failFirst > 0 else { return nil }
        return state.withLock { state in
            let attempt = state.attemptsByFilename[filename, default: 0] + 1
            state.attemptsByFilename[filename] = attempt
            return attempt <= plan.failFirst ? attempt : nil
        }
    }

    private func draw(probability: Double) -> Bool {
        guard probability > 0 else { return false }
        return state.withLock { state in
            Double.random(in: 0..<1, using: &state.generator) < probability
        }
    }
}
