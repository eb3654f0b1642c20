public import Logging

/// Everything a ``ReceiverServer`` needs to know before it starts.
///
/// The defaults match `ferry serve` with no options: loopback only, port 3000, `./uploads`,
/// a 10 GiB body limit, 1000 parts per request, no faults.
public struct ReceiverConfiguration: Sendable {
    /// The address to listen on. Loopback unless set otherwise.
    public var host: String
    /// The TCP port; 0 picks a free one (read it back from ``ReceiverServer/port``).
    public var port: Int
    /// The directory uploads are saved in; created (with parents) if missing.
    public var directory: String
    /// The largest request body accepted, in bytes (413 above it).
    public var maxBodySize: Int64
    /// The most parts (files and fields together) accepted in one request (413 above it).
    public var maxParts: Int
    /// The largest text field value accepted, in bytes (413 above it); fields are kept in memory.
    public var maxFieldSize: Int
    /// The faults to inject into uploads.
    public var faults: FaultPlan
    /// The level of the server's diagnostic log (Hummingbird's), which goes to standard error.
    public var logLevel: Logger.Level
    /// Called once with the base URL (such as `http://127.0.0.1:41234`) when the server is
    /// listening, before it accepts its first connection. It **must** not block for long.
    public var onListening: (@Sendable (String) -> Void)?
    /// Called with one entry per finished request, from the request's task; it **must** be
    /// safe to call concurrently.
    public var onRequestLogged: (@Sendable (RequestLog) -> Void)?

    /// The default body limit: 10 GiB.
    public static let defaultMaxBodySize: Int64 = 10 << 30
    /// The default part limit: 1000.
    public static let defaultMaxParts = 1000
    /// The default text field limit: 1 MiB.
    public static let defaultMaxFieldSize = 1 << 20

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The address to listen on.
    ///   - port: The port, 0 for any free one.
    ///   - directory: Where uploads are saved.
    ///   - maxBodySize: The body limit in bytes.
    ///   - maxParts: The part limit.
    ///   - maxFieldSize: The text field limit in bytes.
    ///   - faults: Faults to inject.
    ///   - logLevel: Level of the diagnostic log on standard error.
    ///   - onListening: Called with the base URL once listening.
    ///   - onRequestLogged: Called once per finished request.
    public init(
        host: String = "127.0.0.1",
        port: Int = 3000,
        directory: String = "./uploads",
        maxBodySize: Int64 = Self.defaultMaxBodySize,
        maxParts: Int = Self.defaultMaxParts,
        maxFieldSize: Int = Self.defaultMaxFieldSize,
        faults: FaultPlan = .none,
        logLevel: Logger.Level = .error,
        onListening: (@Sendable (String) -> Void)? = nil,
        onRequestLogged: (@Sendable (RequestLog) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.directory = directory
        self.maxBodySize = maxBodySize
        self.maxParts = maxParts
        self.maxFieldSize = maxFieldSize
        self.faults = faults
        self.logLevel = logLevel
        self.onListening = onListening
        self.onRequestLogged = onRequestLogged
    }

    /// Checks every value is in range.
    ///
    /// - Throws: ``ReceiverError/invalidConfiguration(reason:)`` naming the first bad option.
    public func validate() throws(ReceiverError) {
        if !(0...65535).contains(port) {
            throw .invalidConfiguration(reason: .valueOutOfRange(option: "--port", value: Int64(port), allowed: 0...65535))
        }
        if maxBodySize < 0 {
            throw .invalidConfiguration(reason: .valueOutOfRange(option: "--max-body", value: maxBodySize, allowed: 0...Int64.max))
        }
        if maxParts < 1 {
            throw .invalidConfiguration(
                reason: .valueOutOfRange(option: "--max-parts", value: Int64(maxParts), allowed: 1...Int64(Int32.max)))
        }
        if maxFieldSize < 0 {
            throw .invalidConfiguration(
                reason: .valueOutOfRange(option: "maxFieldSize", value: Int64(maxFieldSize), allowed: 0...Int64(Int32.max)))
        }
        try faults.validate()
    }
}
