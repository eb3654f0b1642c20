/// Runs `body` with a started terminal and always restores the terminal afterwards, whether
/// `body` returns or throws.
///
/// - Parameters:
///   - defersTermination: Whether the first SIGINT, SIGTERM or SIGHUP is only recorded in
///     ``NcursesTerminal/pendingTerminationSignal`` (see ``NcursesTerminal``).
///   - body: The interface loop.
/// - Returns: What `body` returns.
/// - Throws: ``TerminalError`` when the terminal cannot start, or what `body` throws.
public func withTerminal<R>(defersTermination: Bool = false, _ body: (NcursesTerminal) throws -> R) throws -> R {
    let terminal = NcursesTerminal(defersTermination: defersTermination)
    try terminal.start()
    defer { terminal.stop() }
    return try body(terminal)
}

/// Runs async `body` with a started terminal, in the caller's isolation, and always restores
/// the terminal afterwards.
///
/// - Parameters:
///   - isolation: The caller's actor, inferred.
///   - defersTermination: Whether the first SIGINT, SIGTERM or SIGHUP is only recorded in
///     ``NcursesTerminal/pendingTerminationSignal`` (see ``NcursesTerminal``).
///   - body: The interface loop.
/// - Returns: What `body` returns.
/// - Throws: ``TerminalError`` when the terminal cannot start, or what `body` throws.
public func withTerminal<R>(
    isolation: isolated (any Actor)? = #isolation,
    defersTermination: Bool = false,
    _ body: (NcursesTerminal) async throws -> R
) async throws -> R {
    let terminal = NcursesTerminal(defersTermination: defersTermination)
    try terminal.start()
    defer { terminal.stop() }
    return try await body(terminal)
}
