import Logging

/// The receiver's diagnostic log: swift-log's standard-error handler, except that once the
/// server is stopping it drops everything below `critical`.
///
/// Stopping cancels Hummingbird's accept loop, which it reports as an error
/// ("Waiting on child channel: CancellationError()"); that is expected, not worth a line.
struct QuietOnStopLogHandler: LogHandler {
    private var base: StreamLogHandler
    private let stopping: StoppingFlag

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - stopping: Set when the server starts stopping.
    init(label: String, stopping: StoppingFlag) {
        self.base = StreamLogHandler.standardError(label: label)
        self.stopping = stopping
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        if event.level < .critical, stopping.isSet { return }
        base.log(event: event)
    }
}
