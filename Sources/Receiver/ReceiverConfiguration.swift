public import Logging

/// Everything a ``ReceiverServer`` needs to know before it starts.
///
/// The defaults match `ferry serve` with no options: loopback only, port 3000, `./uploads`,
/// the default ``ReceiverLimits``, ``ReceiverTimeouts`` and ``ReceiverCapacity``, no token, no
/// faults. An address other machines can reach needs a token (``access``) or
/// ``allowsUnauthenticatedNetworkAccess``.
public struct ReceiverConfiguration: Sendable {
    /// The address to listen on. Loopback unless set otherwise.
    public var host: String
    /// The TCP port; 0 picks a free one (read it back from ``ReceiverServer/port``).
    public var port: Int
    /// The directory uploads are saved in; created (with parents) if missing.
    public var directory: String
    /// What one request may hold (413 above it).
    public var limits: ReceiverLimits
    /// Who may use the receiver.
    public var access: ReceiverAccess
    /// Lets a receiver other machines can reach run without a token (`--no-auth`).
    public var allowsUnauthenticatedNetworkAccess: Bool
    /// How long a connection may keep the receiver waiting.
    public var timeouts: ReceiverTimeouts
    /// How many connections and uploads are served at once.
    public var capacity: ReceiverCapacity
    /// The faults to inject into uploads.
    public var faults: FaultPlan
    /// How long an unfinished tus upload lives after its last PATCH (`--tus-expire`). Default 24 h.
    /// An unfinished resumable upload at `/upload` lives as long after its connection was cut.
    public var tusExpiration: Duration
    /// Whether `/upload` offers resumable uploads (the IETF draft's `104`) to requests that ask;
    /// off with `--no-resumable`, for a proxy in front that takes a `104` for the answer (nginx
    /// does: nginx/nginx#1427).
    public var offersResumableUploads: Bool
    /// How fast request bodies are read, in bytes a second (`--throttle`); `nil` as fast as they come.
    public var throttle: Int64?
    /// The level of the server's diagnostic log (Hummingbird's), which goes to standard error.
    public var logLevel: Logger.Level
    /// Called once with the base URL (such as `http://127.0.0.1:41234`) when the server is
    /// listening, before it accepts its first connection. It **must** not block for long.
    public var onListening: (@Sendable (String) -> Void)?
    /// Called with one entry per finished request, from the request's task; it **must** be
    /// safe to call concurrently.
    public var onRequestLogged: (@Sendable (RequestLog) -> Void)?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The address to listen on.
    ///   - port: The port, 0 for any free one.
    ///   - directory: Where uploads are saved.
    ///   - limits: What one request may hold.
    ///   - access: Who may use the receiver.
    ///   - allowsUnauthenticatedNetworkAccess: Whether an address reachable from other machines
    ///     may go without a token.
    ///   - timeouts: How long a connection may keep the receiver waiting.
    ///   - capacity: Connections and uploads at once.
    ///   - faults: Faults to inject.
    ///   - tusExpiration: How long an unfinished tus upload lives after its last PATCH.
    ///   - offersResumableUploads: Whether `/upload` offers resumable uploads.
    ///   - throttle: Bytes a second at which request bodies are read, or `nil`.
    ///   - logLevel: Level of the diagnostic log on standard error.
    ///   - onListening: Called with the base URL once listening.
    ///   - onRequestLogged: Called once per finished request.
    public init(
        host: String = "127.0.0.1",
        port: Int = 3000,
        directory: String = "./uploads",
        limits: ReceiverLimits = ReceiverLimits(),
        access: ReceiverAccess = .open,
        allowsUnauthenticatedNetworkAccess: Bool = false,
        timeouts: ReceiverTimeouts = .standard,
        capacity: ReceiverCapacity = ReceiverCapacity(),
        faults: FaultPlan = .none,
        tusExpiration: Duration = Self.defaultTusExpiration,
        offersResumableUploads: Bool = true,
        throttle: Int64? = nil,
        logLevel: Logger.Level = .error,
        onListening: (@Sendable (String) -> Void)? = nil,
        onRequestLogged: (@Sendable (RequestLog) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.directory = directory
        self.limits = limits
        self.access = access
        self.allowsUnauthenticatedNetworkAccess = allowsUnauthenticatedNetworkAccess
        self.timeouts = timeouts
        self.capacity = capacity
        self.faults = faults
        self.tusExpiration = tusExpiration
        self.offersResumableUploads = offersResumableUploads
        self.throttle = throttle
        self.logLevel = logLevel
        self.onListening = onListening
        self.onRequestLogged = onRequestLogged
    }

    /// The default of ``tusExpiration``: 24 hours.
    public static let defaultTusExpiration = Duration.seconds(86_400)
    /// The longest ``tusExpiration`` accepted, in seconds: a year.
    static let maximumTusExpirationSeconds: Int64 = 366 * 86_400

    /// Checks every value is in range.
    ///
    /// - Throws: ``ReceiverError/invalidConfiguration(reason:)`` naming the first bad option.
    public func validate() throws(ReceiverError) {
        if !(0...65535).contains(port) {
            throw .invalidConfiguration(reason: .valueOutOfRange(option: "--port", value: Int64(port), allowed: 0...65535))
        }
        try limits.validate()
        try timeouts.validate()
        try faults.validate()
        if tusExpiration < .seconds(1) || tusExpiration > .seconds(Self.maximumTusExpirationSeconds) {
            throw .invalidConfiguration(
                reason: .valueOutOfRange(
                    option: "--tus-expire", value: tusExpiration.components.seconds, allowed: 1...Self.maximumTusExpirationSeconds))
        }
        if let throttle, throttle < 1 {
            throw .invalidConfiguration(reason: .valueOutOfRange(option: "--throttle", value: throttle, allowed: 1...Int64.max))
        }
        switch access {
        case .open:
            if !allowsUnauthenticatedNetworkAccess && !ListenAddress.isLoopback(host) {
                throw .invalidConfiguration(reason: .tokenRequired(host: host))
            }
        case .token(let token):
            if token.isEmpty {
                throw .invalidConfiguration(reason: .tokenUnusable(detail: "it is empty"))
            }
            if token.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
                throw .invalidConfiguration(
                    reason: .tokenUnusable(detail: "it holds spaces or control characters, which a header cannot carry"))
            }
        }
    }

    /// Whether other machines can reach the address and nobody needs a token: the case
    /// `ferry serve --no-auth` warns about.
    public var isOpenToNetwork: Bool {
        access == .open && !ListenAddress.isLoopback(host)
    }
}
