import ArgumentParser
import UploadModel

/// A job ID as `ferry jobs` and `ferry send`'s `left` lines write it: `12` or `#12`.
struct JobIDArgument: ExpressibleByArgument {
    /// The ID.
    let id: UploadJobID

    init?(argument: String) {
        guard let value = Int64(argument.hasPrefix("#") ? String(argument.dropFirst()) : argument), value > 0 else {
            return nil
        }
        id = UploadJobID(value)
    }
}
