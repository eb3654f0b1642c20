extension FileSnapshot {
    /// What the path names now, whatever kind of file it is (a directory's modification time
    /// moves when an entry is added, removed or renamed); nil when it cannot be examined.
    ///
    /// - Parameter path: The path; symbolic links are followed.
    public init?(currentStateOf path: String) {
        guard let (stamp, _) = FileStamp.current(of: path) else { return nil }
        self.init(path: path, stamp: stamp)
    }
}
