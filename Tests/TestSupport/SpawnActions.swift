import Glibc

/// File actions for `posix_spawn` that Swift's C modules do not import.
public enum SpawnActions {
    /// The C signature of `posix_spawn_file_actions_addclosefrom_np`.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// Adds an action that closes every descriptor from `lowest` up in the child, so that it
    /// gets only what the actions before this one give it.
    ///
    /// A spawned child otherwise inherits every descriptor of the test process that is not
    /// close-on-exec — NIO's sockets (listening ones too) and other tests' pipes among them —
    /// and a daemon it starts (a tmux server) keeps them for its whole life. glibc (2.34 and
    /// later) has the action, but declares it only under `_GNU_SOURCE`, so it is looked up at
    /// run time.
    /// - Parameters:
    ///   - actions: Initialised file actions.
    ///   - lowest: The first descriptor to close.
    /// - Returns: 0, or an error number (`ENOSYS` when the C library lacks the action).
    public static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Int32 {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
    }
}
