/// Where a process's write-ahead marks (`JournalMark`) go: written in about a microsecond on
/// the thread that needs them (an event loop before a body's last byte), ahead of the rows.
/// ``JournalMarkLog`` is the file beside the journal.
public protocol JournalMarkStore: AnyObject, Sendable {
    /// Writes a mark; returns once it is in the kernel's hands.
    ///
    /// - Parameter mark: The mark.
    /// - Returns: Whether it was written.
    func append(_ mark: JournalMark) -> Bool

    /// The bytes written since the store was created or last reset.
    var usedBytes: Int64 { get }

    /// Forgets every mark, if none was written since `used` was read (every mark up to then is
    /// in the rows).
    ///
    /// - Parameter used: ``usedBytes`` as read then.
    func reset(ifUsedIs used: Int64)

    /// Sets what is called, once, when reserving room for more marks failed.
    ///
    /// - Parameter handler: Called with the reason in words, on the appending thread.
    func setReservationFailureHandler(_ handler: @escaping @Sendable (String) -> Void)
}
