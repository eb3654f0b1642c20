/// Why no new request goes to an endpoint for now (``UploadEvent/endpointPaused(_:_:)``): its
/// credentials were refused, or it asked for a pause with `Retry-After`, or both.
public struct EndpointPause: Sendable, Hashable {
    /// A pause the server asked for: a 429 or 503 with `Retry-After`.
    public struct Wait: Sendable, Hashable {
        /// The status that asked for it (429 or 503).
        public var status: Int
        /// How long it asked for, from its answer.
        public var delay: Duration
        /// When the pause ends: the queue's instant of the answer plus `delay`.
        public var until: SchedulerInstant

        /// A pause the server asked for.
        ///
        /// - Parameters:
        ///   - status: The status that asked for it.
        ///   - delay: Its `Retry-After`.
        ///   - until: When it ends.
        public init(status: Int, delay: Duration, until: SchedulerInstant) {
            self.status = status
            self.delay = delay
            self.until = until
        }
    }

    /// The status (401, or 403 after an earlier success) that refused the endpoint's
    /// credentials, while no new ones were given; nil when none were refused.
    public var refusedCredentials: Int?
    /// The pause the server asked for, until it ends; nil when none is in force.
    public var wait: Wait?
    /// Whether the refused request carried credentials (an `Authorization`, `Cookie` or other
    /// secret header, or a URL's `user:password`): false when the endpoint wants credentials
    /// and none were sent, so words say "wants credentials", never "refused them".
    public var credentialsSent: Bool

    /// A pause.
    ///
    /// - Parameters:
    ///   - refusedCredentials: The status that refused the credentials, if any.
    ///   - wait: The pause the server asked for, if any.
    ///   - credentialsSent: Whether the refused request carried credentials.
    public init(refusedCredentials: Int? = nil, wait: Wait? = nil, credentialsSent: Bool = true) {
        self.refusedCredentials = refusedCredentials
        self.wait = wait
        self.credentialsSent = credentialsSent
    }

    /// What happened to the endpoint's credentials, in words: `HOST refused the credentials
    /// (401)`, or `HOST wants credentials (401) and none were sent`; nil when none were refused.
    ///
    /// - Parameter endpoint: The endpoint paused.
    public func credentialsText(for endpoint: UploadEndpoint) -> String? {
        guard let status = refusedCredentials else { return nil }
        return credentialsSent
            ? "\(endpoint) refused the credentials (\(status))"
            : "\(endpoint) wants credentials (\(status)) and none were sent"
    }

    /// Whether the pause holds anything back.
    package var isInForce: Bool { refusedCredentials != nil || wait != nil }
}
