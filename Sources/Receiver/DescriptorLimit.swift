import Glibc

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`).
public enum DescriptorLimit {
    /// The most a soft limit is raised to when the hard limit is unlimited (`RLIM_INFINITY`, all ones) (Linux's default
    /// `fs.nr_open`).
    static let unlimitedTarget: rlim_t = 1 << 20

    /// The current soft limit.
    public static var current: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return limit.rlim_cur == rlim_t.max ? Int(unlimitedTarget) : Int(limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit, as servers do at start (the common soft limit
    /// of 1024 is a leftover of `select(2)`, which nothing here uses).
    ///
    /// - Returns: The soft limit afterwards (unchanged when raising failed).
    @discardableResult
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current }
        let target = limit.rlim_max == rlim_t.max ? unlimitedTarget : limit.rlim_max
        if limit.rlim_cur != rlim_t.max, limit.rlim_cur < target {
            limit.rlim_cur = target
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }
}
