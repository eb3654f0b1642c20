/// What every fuzz target shares: libFuzzer's driver, and a check that reports in release builds.

@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Runs libFuzzer's driver on `callback`.
///
/// SwiftPM links an executable with its `main` renamed (`TARGET_main`), so libFuzzer's own `main`
/// is not linked in: each target's renamed entry calls this instead.
///
/// - Parameters:
///   - argc: The process's argument count.
///   - argv: The process's arguments.
///   - callback: The target's `LLVMFuzzerTestOneInput`.
/// - Returns: libFuzzer's exit status.
public func runFuzzerDriver(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv = argv
    return llvmFuzzerRunDriver(&argc, &argv, callback)
}

/// `precondition` that prints its message in release builds too (libFuzzer's log shows it).
///
/// - Parameters:
///   - condition: What must hold.
///   - message: What is wrong when it does not.
public func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    if !condition { fatalError(message(), file: file, line: line) }
}
