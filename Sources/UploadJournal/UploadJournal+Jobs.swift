import FoundationEssentials
import SQLiteDatabase
import Glibc
import UploadModel
import UploadEngine

// Jobs: inserting, recording changes, restoring, listing, forgetting.
extension UploadJournal {
    /// Inserts new jobs in one transaction; SQLite assigns their IDs (increasing, never reused).
    ///
    /// - Parameter specs: The jobs' specs.
    /// - Returns: The queued jobs, with their IDs, in the given order.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`; then nothing was inserted.
    public func insert(_ specs: [UploadJobSpec]) throws(UploadError) -> [UploadJob] {
        zip(try insertIDs(specs), specs).map { UploadJob(id: $0, spec: $1) }
    }

    /// Inserts new jobs in one transaction, as ``insert(_:)`` does, and returns only their IDs:
    /// a queue of 100,000 jobs need not exist twice while it is being recorded.
    ///
    /// - Parameter specs: The jobs' specs.
    /// - Returns: The new jobs' IDs, in the given order.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`; then nothing was inserted.
    public func insertIDs(_ specs: [UploadJobSpec]) throws(UploadError) -> [UploadJobID] {
        guard !specs.isEmpty else { return [] }
        let now = Date().timeIntervalSince1970
        do {
            return try database.write { connection in
                var ids: [UploadJobID] = []
                ids.reserveCapacity(specs.count)
                var json = JournalJSON()
                for spec in specs {
                    ids.append(UploadJobID(try UploadJobRecord.insertQueued(spec, client: client, at: now, json: &json, in: connection)))
                }
                return ids
            }
        } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
    }

    /// Applies changes in one transaction, in order. An update to a succeeded job deletes its
    /// row instead unless the client keeps them (`JournalClient.keepsSucceededRows`).
    ///
    /// - Parameter changes: Row updates and deletions.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`; then none was applied.
    public func apply(_ changes: [JournalChange]) throws(UploadError) {
        guard !changes.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        do {
            try database.write { connection in
                let delete = try connection.cachedStatement("DELETE FROM \(UploadJobRecord.tableName) WHERE id = ?")
                var json = JournalJSON()
                for change in changes {
                    switch change {
                    case let .update(job, _) where job.state == .succeeded && !client.keepsSucceededRows:
                        try delete.execute([.integer(job.id.rawValue)])
                    case let .update(job, includingSpec):
                        try UploadJobRecord(updating: job, includingSpec: includingSpec, at: now).updateRow(in: connection, json: &json)
                    case let .delete(ids):
                        for id in ids { try delete.execute([.integer(id.rawValue)]) }
                    case let .urlHonoursIdempotencyKeys(url):
                        try Self.recordHonouring(url, in: connection, at: now)
                    }
                }
            }
        } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
    }

    /// Takes over what earlier runs left: deletes the rows of finished jobs and returns the
    /// restorable ones (``loadRestorableJobs(includingCancelled:)``) — only while no other process
    /// has the journal open, because that process's queued rows are its own live jobs and would
    /// be sent twice.
    ///
    /// - Parameter keepingCancelled: Whether this client's cancelled jobs are kept and returned
    ///   (the interface shows them, to retry or remove) instead of deleted.
    /// - Returns: The jobs.
    /// - Throws: `UploadError.journalFailed(reason: .inUse)` naming the other process;
    ///   `.readFailed` or `.writeFailed`.
    public func takeOverRestorableJobs(keepingCancelled: Bool = false) throws(UploadError) -> [UploadJob] {
        try lock.exclusively { () throws(UploadError) -> [UploadJob] in
            try absorbMarksOfEndedProcesses()
            try deleteFinishedJobs(keepingCancelled: keepingCancelled)
            return try loadRestorableJobs(includingCancelled: keepingCancelled)
        }
    }

    /// Settles what ended runs left without taking over their jobs: their marks files are read
    /// into the rows and removed (``absorbMarksOfEndedProcesses()``), so none lingers in the state
    /// folder after a killed run — when no other process has the journal open (its marks file is
    /// its own, and live); then this does nothing.
    ///
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)` or `.writeFailed`.
    public func absorbMarksOfEndedRuns() throws(UploadError) {
        do {
            try lock.exclusively { () throws(UploadError) in try absorbMarksOfEndedProcesses() }
        } catch {
            if case .journalFailed(reason: .inUse) = error { return }
            throw error
        }
    }

    /// Reads the marks files of processes that had the journal open and ended (this one holds
    /// the lock exclusively, so no other has it open), writes what they say into the rows in one
    /// transaction, then removes them:
    /// - `succeeded`: the row is succeeded, whatever it says (a success is final);
    /// - `bodyMayComplete(attempt: n)`: the row fails as `interruptedAfterSending` ("may have
    ///   arrived") when that attempt is still its latest — the row says `uploading` with at most
    ///   `n` attempts, or any other unfinished state with fewer (a later row for attempt `n` was
    ///   written after it ended: an answer to retry, or the user's retry).
    func absorbMarksOfEndedProcesses() throws(UploadError) {
        let files = JournalMarkLog.files(besideJournal: path, excluding: marks.path)
        guard !files.isEmpty else { return }
        var marks: [JournalMark] = []
        for file in files { marks += try JournalMarkLog.marks(inFile: file) }
        if !marks.isEmpty {
            let error = UploadError.transferFailed(reason: .interruptedAfterSending)
            let reason = (try? JournalJSON().text(JournaledError(error))) ?? ""
            let now = Date().timeIntervalSince1970
            do {
                try database.write { connection in
                    let interrupted = try connection.prepare("""
                        UPDATE upload_job SET state = 'failed', last_error = ?, last_error_reason = ?, updated_at = ?
                        WHERE id = ? AND ((state = 'uploading' AND attempts <= ?)
                                          OR (state IN ('queued', 'failed', 'cancelled') AND attempts < ?))
                        """)
                    let succeeded = try connection.prepare("""
                        UPDATE upload_job SET state = 'succeeded', last_error = NULL, last_error_reason = NULL, updated_at = ?
                        WHERE id = ?
                        """)
                    for case let .bodyMayComplete(id, attempt) in marks {
                        try interrupted.execute([
                            .text(error.description), .text(reason), .real(now), .integer(id.rawValue), SQLiteValue(attempt),
                            SQLiteValue(attempt),
                        ])
                    }
                    for case let .succeeded(id) in marks {
                        try succeeded.execute([.real(now), .integer(id.rawValue)])
                    }
                }
            } catch {
                throw .journalFailed(reason: .writeFailed(message: "\(error)"))
            }
        }
        for file in files { unlink(file) }
    }

    /// The jobs a later run of this client picks up again: queued, uploading (interrupted) and
    /// failed (and cancelled, if asked), in ID order, as recorded (an interrupted job still says
    /// `uploading`).
    ///
    /// - Parameter includingCancelled: Whether cancelled jobs are picked up too.
    /// - Returns: The jobs.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func loadRestorableJobs(includingCancelled: Bool = false) throws(UploadError) -> [UploadJob] {
        let states = includingCancelled ? "'queued', 'uploading', 'failed', 'cancelled'" : "'queued', 'uploading', 'failed'"
        return try fetchJobs(where: "state IN (\(states)) AND (client = '\(client.rawValue)' OR client IS NULL)")
    }

    /// How many unfinished (queued or interrupted) jobs another client left for its own resume.
    ///
    /// - Parameter other: The other client.
    /// - Returns: The count.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func unfinishedJobCount(of other: JournalClient) throws(UploadError) -> Int {
        do {
            return try database.perform { connection in
                let count = try connection.prepare("SELECT COUNT(*) FROM upload_job WHERE state IN ('queued', 'uploading') AND client = ?")
                return try count.rows([.text(other.rawValue)]) { Int($0.int64(0) ?? 0) }.first ?? 0
            }
        } catch {
            throw .journalFailed(reason: .readFailed(message: "\(error)"))
        }
    }

    /// Every job in the journal, in ID order.
    ///
    /// - Returns: The jobs.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func allJobs() throws(UploadError) -> [UploadJob] {
        try fetchJobs(where: "1")
    }

    /// One job as its row records it (progress is never recorded: only the body's length).
    ///
    /// - Parameter id: The job.
    /// - Returns: The job, or nil if there is no such row.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func job(_ id: UploadJobID) throws(UploadError) -> UploadJob? {
        try fetchJobs(where: "id = \(id.rawValue)").first
    }

    /// Deletes the rows of succeeded jobs, and of this client's cancelled jobs unless they are
    /// kept (a restore does this: nobody will see them; another client's cancelled jobs are its
    /// own to show).
    ///
    /// - Parameter keepingCancelled: Whether cancelled jobs are kept.
    /// - Returns: How many rows were deleted.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`.
    @discardableResult
    public func deleteFinishedJobs(keepingCancelled: Bool = false) throws(UploadError) -> Int {
        let cancelled = keepingCancelled ? "" : " OR (state = 'cancelled' AND (client = '\(client.rawValue)' OR client IS NULL))"
        do {
            return try database.write { connection in
                try connection.execute("DELETE FROM upload_job WHERE state = 'succeeded'\(cancelled)")
                return connection.changes
            }
        } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
    }

    /// Queues failed jobs again for this client's next restore (`ferry jobs retry`): each row
    /// that is failed becomes queued and this client's, whichever client failed it. Only while no
    /// other process has the journal open.
    ///
    /// - Parameter ids: The jobs.
    /// - Returns: The IDs that were failed and are now queued.
    /// - Throws: `UploadError.journalFailed(reason: .inUse)` naming the other process; `.writeFailed`.
    public func requeueFailedJobs(_ ids: [UploadJobID]) throws(UploadError) -> [UploadJobID] {
        try lock.exclusively { () throws(UploadError) -> [UploadJobID] in
            do {
                return try database.write { connection in
                    let requeue = try connection.prepare(
                        "UPDATE upload_job SET state = 'queued', client = ?, updated_at = ? WHERE id = ? AND state = 'failed'")
                    var requeued: [UploadJobID] = []
                    for id in ids {
                        try requeue.execute([.text(client.rawValue), .real(Date().timeIntervalSince1970), .integer(id.rawValue)])
                        if connection.changes > 0 { requeued.append(id) }
                    }
                    return requeued
                }
            } catch {
                throw .journalFailed(reason: .writeFailed(message: "\(error)"))
            }
        }
    }

    /// Deletes jobs that are not running (`ferry jobs forget`): failed, succeeded and cancelled
    /// rows, and queued or interrupted ones, which no other process may be sending (only while no
    /// other process has the journal open).
    ///
    /// - Parameter ids: The jobs.
    /// - Returns: How many rows were deleted.
    /// - Throws: `UploadError.journalFailed(reason: .inUse)` naming the other process; `.writeFailed`.
    @discardableResult
    public func forgetJobs(_ ids: [UploadJobID]) throws(UploadError) -> Int {
        try lock.exclusively { () throws(UploadError) -> Int in
            do {
                return try database.write { connection in
                    let forget = try connection.prepare("DELETE FROM upload_job WHERE id = ?")
                    var deleted = 0
                    for id in ids {
                        try forget.execute([.integer(id.rawValue)])
                        deleted += connection.changes
                    }
                    return deleted
                }
            } catch {
                throw .journalFailed(reason: .writeFailed(message: "\(error)"))
            }
        }
    }
}
