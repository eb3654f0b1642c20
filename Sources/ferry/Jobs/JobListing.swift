import FileSystem
import Multipart
import TerminalUI
import TextFormat
import JSON
import UploadModel

/// How `ferry jobs` shows one journal job: a line for people, a JSON object for scripts.
struct JobListing {
    /// The job.
    let job: UploadJob

    init(_ job: UploadJob) {
        self.job = job
    }

    /// The state as a word; a failed job whose body may have arrived says so.
    var state: String {
        job.mayHaveArrived ? "may-have-arrived" : job.state.rawValue
    }

    /// The paths the job sends.
    private var name: String {
        let paths = job.spec.namingPaths
        guard let first = paths.first else { return "(no files)" }
        return paths.count > 1 ? "\(first) (+\(paths.count - 1) more)" : first
    }

    /// `#ID  STATE  PATH  -> URL[: why]`, as a terminal can print it: bytes that are not UTF-8
    /// as `\xNN` and control characters escaped (a name's escape sequence or line break, in the
    /// path or in the error that names it, is shown, never obeyed), as `ferry send` shows them.
    var line: String {
        var text = "#\(job.id)  \(state)  \(name)  -> \(job.spec.url)"
        if job.state == .failed, let error = job.lastError { text += ": \(error.description)" }
        return DisplayWidth.displayable(bytes: FileSystemName.bytes(of: text))
    }

    /// The job as one line of JSON.
    func jsonLine() -> String {
        var object = CompactJSONObject()
        object.add("error", job.state == .failed ? job.lastError?.description : nil)
        object.add("id", job.id.rawValue)
        object.add("mayHaveArrived", json: job.mayHaveArrived ? "true" : "false")
        object.add("path", job.spec.namingPaths.first)
        object.add("state", job.state.rawValue)
        object.add("url", job.spec.url)
        return object.finished
    }
}
