import UploadModel

/// The jobs eligible to start, oldest first, by ticket: a job made ready again gets a new ticket,
/// and an entry whose ticket is no longer its job's (the job started, was cancelled, removed or
/// made ready again) is skipped when it comes up.
struct ReadyQueue: Sendable {
    private struct Entry: Sendable {
        var id: UploadJobID
        var ticket: Int
    }

    private var entries: [Entry] = []
    private var head = 0
    private var nextTicket = 0

    /// Appends a job and returns its ticket.
    ///
    /// - Parameter id: The job.
    /// - Returns: The ticket the job **must** keep while it waits (``JobPhase/waiting(ticket:)``).
    mutating func append(_ id: UploadJobID) -> Int {
        defer { nextTicket += 1 }
        entries.append(Entry(id: id, ticket: nextTicket))
        return nextTicket
    }

    /// A ticket for a job that waits outside the queue (set aside for its endpoint): later than
    /// every ticket so far, with no entry, so the job never comes up until it is appended.
    ///
    /// - Returns: The ticket.
    mutating func issueTicket() -> Int {
        defer { nextTicket += 1 }
        return nextTicket
    }

    /// Takes the oldest entry that is still current.
    ///
    /// - Parameter isCurrent: Whether a job still waits under a ticket.
    /// - Returns: The job, or nil when none is ready.
    mutating func popFirst(where isCurrent: (UploadJobID, Int) -> Bool) -> UploadJobID? {
        while head < entries.count {
            let entry = entries[head]
            head += 1
            if isCurrent(entry.id, entry.ticket) {
                if head >= 4096, head * 2 >= entries.count {
                    entries.removeFirst(head)
                    head = 0
                }
                return entry.id
            }
        }
        entries.removeAll(keepingCapacity: true)
        head = 0
        return nil
    }

    /// Makes room for `count` more entries at once.
    ///
    /// - Parameter count: How many jobs are about to be made ready.
    mutating func reserveCapacity(forAdding count: Int) {
        let needed = entries.count + count
        if needed > entries.capacity { entries.reserveCapacity(max(needed, entries.capacity * 2)) }
    }
}
