import Glibc
import CNcursesw
import Synchronization

/// Restores the terminal (`endwin`) on every way out of the process while curses is active:
/// termination signals, crash signals, and `exit` without ``NcursesTerminal/stop()``.
///
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT: restore, then the signal is raised again with the
///   disposition it had before, so the process ends as the sender meant (a signal that was
///   ignored at start, such as SIGHUP under `nohup`, is left ignored).
/// - Unless the terminal defers termination (``NcursesTerminal/init(defersTermination:)``):
///   then the first SIGINT, SIGTERM or SIGHUP is only recorded in ``pendingTermination`` for
///   the interface loop to end cleanly (save its state, restore, then die by the signal); a
///   second one, or SIGQUIT, acts at once as above.
/// - SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT: restore, then the previous handler
///   (the Swift runtime's backtracer, or the default) gets the signal, so the crash report
///   lands on the normal screen.
/// - `atexit`: restore if still active.
///
/// When the process survives such a signal (a previous handler that returns, as the Swift
/// runtime's SIGQUIT backtracer does), the next draw or read resumes curses and reinstalls
/// the handlers; see `NcursesTerminal.resumeAfterSignalIfNeeded()`.
///
/// Handlers are installed before `newterm`, so ncurses does not install its own SIGINT and
/// SIGTERM handlers (which would `exit(1)` instead of dying by the signal).
///
/// Job control (``installJobControl()``, after `newterm`): SIGTSTP from outside (`kill -TSTP`)
/// is recorded in ``suspendRequested`` for the loop's thread to suspend on (ncurses' own
/// handler would call `endwin` on whichever thread the signal lands, mid-draw perhaps); SIGCONT
/// and SIGWINCH (after ncurses' handler, which notes the resize) wake the loop through
/// ``wakeDescriptor``, as a deferred termination signal does.
enum TerminalRestorer {
    /// Whether `endwin` is still owed. Read and cleared atomically from signal handlers.
    static let needsRestore = Atomic<Bool>(false)
    /// Whether an ``NcursesTerminal`` is running.
    static let claimed = Atomic<Bool>(false)
    /// Whether the running terminal defers the first termination signal.
    static let defersTermination = Atomic<Bool>(false)
    /// The deferred termination signal, or 0 when none arrived.
    static let pendingTermination = Atomic<Int32>(0)

    /// The write end of the running terminal's waker pipe (``EventWakeup``), or -1: signal
    /// handlers wake the loop through it.
    static let wakeDescriptor = Atomic<Int32>(-1)
    /// Whether a SIGTSTP from outside asked the loop to suspend.
    static let suspendRequested = Atomic<Bool>(false)
    /// Whether SIGTSTP was ignored when the terminal started (then Ctrl-Z does not stop the
    /// process, as in a shell without job control).
    static let stopIsIgnored = Atomic<Bool>(false)

    static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    static let jobControlSignals: [Int32] = [SIGTSTP, SIGCONT, SIGWINCH]
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT]

    /// The dispositions replaced by ours, indexed by signal number.
    ///
    /// `nonisolated(unsafe)`: written only by `install()`/`uninstall()` on the thread that
    /// starts and stops the terminal, while our handlers are not installed for the entry
    /// being written; read by the handlers. The `claimed` flag keeps two terminals from
    /// installing at once.
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        pointer.initialize(repeating: sigaction(), count: 65)
        return pointer
    }()
    /// Which signals have our handler, indexed by signal number (same rules as above).
    nonisolated(unsafe) static let installed: UnsafeMutablePointer<Bool> = {
        let pointer = UnsafeMutablePointer<Bool>.allocate(capacity: 65)
        pointer.initialize(repeating: false, count: 65)
        return pointer
    }()

    /// Registers the `atexit` hook once per process.
    static let atexitRegistered: Bool = {
        atexit {
            if TerminalRestorer.needsRestore.exchange(false, ordering: .acquiringAndReleasing) {
                endwin()
            }
        }
        return true
    }()

    /// Installs the signal handlers (and the `atexit` hook); signals that already have
    /// ours are left alone.
    static func install() {
        _ = atexitRegistered
        for signal in terminationSignals + crashSignals where !installed[Int(signal)] {
            var current = sigaction()
            sigaction(signal, nil, &current)
            if terminationSignals.contains(signal) && isIgnored(current) { continue }
            previousActions[Int(signal)] = current
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                TerminalRestorer.handle(signal)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            if sigaction(signal, &action, nil) == 0 {
                installed[Int(signal)] = true
            }
        }
    }

    /// Installs the job-control handlers (after `newterm`, so ncurses' SIGWINCH handler is the
    /// one ours calls first).
    static func installJobControl() {
        for signal in jobControlSignals where !installed[Int(signal)] {
            var current = sigaction()
            sigaction(signal, nil, &current)
            if signal == SIGTSTP {
                let ignored = isIgnored(current)
                stopIsIgnored.store(ignored, ordering: .releasing)
                if ignored { continue }
            }
            previousActions[Int(signal)] = current
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                TerminalRestorer.handleJobControl(signal)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            if sigaction(signal, &action, nil) == 0 {
                installed[Int(signal)] = true
            }
        }
    }

    /// Stops the process group with SIGTSTP's default action, as a shell's Ctrl-Z would have
    /// (the whole group: a wrapper script stops too, and its shell sees the job stopped);
    /// returns once it is continued. A group the kernel sees as orphaned (no shell to continue
    /// it) is not stopped, and this returns at once.
    ///
    /// The signal `kill` sends to the group is the process's, and the kernel hands it to one
    /// thread — the main thread, as a rule, not this one — which acts on it only when it next
    /// runs, with the disposition of *that* moment. On a busy machine this thread used to put
    /// the handler back first: the handler then took the signal, nothing stopped and the screen
    /// came straight back. So SIGTSTP is blocked here while it is sent and unblocked after:
    /// unblocking makes the kernel look at the pending signal for this thread before it returns,
    /// and it either takes it here (the process stops) or finds the stop another thread began
    /// and stops too. Only then does the handler go back.
    static func stopProcessGroup() {
        var original = sigaction()
        var stop = sigaction()
        stop.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&stop.sa_mask)
        sigaction(SIGTSTP, &stop, &original)
        var signal = sigset_t()
        sigemptyset(&signal)
        sigaddset(&signal, SIGTSTP)
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &signal, &mask)
        kill(0, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &signal, nil)
        sigaction(SIGTSTP, &original, nil)
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    /// The job-control handler: note a SIGTSTP, let ncurses note a resize, wake the loop.
    /// Async-signal-safe: atomics, `write` and ncurses' own handler only.
    static func handleJobControl(_ signal: Int32) {
        switch signal {
        case SIGTSTP:
            suspendRequested.store(true, ordering: .releasing)
        case SIGWINCH:
            let previous = previousActions[Int(signal)]
            if let handler = previous.__sigaction_handler.sa_handler, !isIgnored(previous),
               unsafeBitCast(handler, to: Int.self) != 0 {
                handler(signal)
            }
        default:
            break
        }
        EventWakeup.wake(wakeDescriptor.load(ordering: .acquiring))
    }

    /// Puts back the dispositions that ``install()`` and ``installJobControl()`` replaced.
    static func uninstall() {
        for signal in terminationSignals + crashSignals + jobControlSignals where installed[Int(signal)] {
            sigaction(signal, &previousActions[Int(signal)], nil)
            installed[Int(signal)] = false
        }
    }

    /// The signal handler: record a deferrable termination signal, or restore the terminal,
    /// put back the previous disposition and let it act. Async-signal-safe: atomics,
    /// `endwin`, `sigaction` and `raise` only.
    static func handle(_ signal: Int32) {
        if (signal == SIGINT || signal == SIGTERM || signal == SIGHUP),
           defersTermination.load(ordering: .acquiring),
           pendingTermination.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing).exchanged {
            EventWakeup.wake(wakeDescriptor.load(ordering: .acquiring))
            return
        }
        if needsRestore.exchange(false, ordering: .acquiringAndReleasing) {
            endwin()
        }
        let index = Int(signal)
        sigaction(signal, &previousActions[index], nil)
        installed[index] = false
        switch signal {
        case SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP:
            // Returning re-executes the faulting instruction, which now reaches the
            // previous handler.
            return
        default:
            // Blocked while this handler runs; delivered to the previous disposition as
            // soon as it returns.
            raise(signal)
        }
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == 1
    }
}
