import Glibc

/// glibc's malloc arenas, set for a process whose data is built on several threads.
///
/// ferry builds its data on several threads: argv and the job specs on the main thread, the
/// queue on the uploading root queue, events on their own queues. glibc gives threads arenas of
/// their own, and memory freed in one arena is not reused by another thread's allocations: with
/// 100,000 queued jobs that cost about 20 MiB of peak RSS. One arena shares it; ferry's threads
/// mostly wait for I/O, and glibc's per-thread caches serve small allocations without the lock.
enum MallocArenas {
    /// `M_ARENA_MAX` from `<malloc.h>`, which Swift's Glibc module does not include.
    private static let arenaMaxOption: Int32 = -8

    /// Makes every thread allocate from the main arena (`mallopt(M_ARENA_MAX, 1)`); call first
    /// thing in `main`, before other threads start.
    static func useOne() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        // mallopt is declared in <malloc.h> only, so it is looked up (a nil handle is RTLD_DEFAULT).
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaxOption, 1)
    }
}
