/// Runs `body` with a started terminal and always restores the terminal afterwards, whether
/// `body` returns or throws.
///
/// - Parameter body: The interface loop.
/// - Returns: What `body` returns.
/// - Throws: ``TerminalError`` when the terminal cannot start, or what `body` throws.
public func withTerminal<R>(_ body: (NcursesTerminal) throws -> R) throws -> R {
    let terminal = NcursesTerminal()
    try terminal.start()
    defer { terminal.stop() }
    return try body(terminal)
}

/// Runs async `body` with a started terminal, in the caller's isolation, and always restores
/// the terminal afterwards.
///
/// - Parameters:
///   - isolation: The caller's actor, inferred.
///   - body: The interface loop.
/// - Returns: What `body` returns.
/// - Throws: ``TerminalError`` when the terminal cannot start, or what `body` throws.
public func withTerminal<R>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (NcursesTerminal) async throws -> R
) async throws -> R {
    let terminal = NcursesTerminal()
    try terminal.start()
    defer { terminal.stop() }
    return try await body(terminal)
}
