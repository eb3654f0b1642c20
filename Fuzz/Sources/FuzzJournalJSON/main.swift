import Foundation
@testable import UploadModel
@testable import UploadJournal
import FuzzSupport

/// The journal's JSON columns on arbitrary bytes: `JSONDecoder` reads them as the journal does
/// (`[UploadAttempt]` for `attempt_history`, `UploadJobSpec` for `spec`, `JournaledError` for
/// `last_error_reason`), and whatever decodes must round-trip through the journal's own writer:
/// `JournalJSON.attempts(x)`, `JournalJSON.files(x)` and `JournalJSON().spec(x)` (written
/// without `JSONEncoder`, in its shape) decode back to `x`; a `JournaledError` and an
/// `UploadError` encoded with `JSONEncoder` decode back to themselves.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    let decoder = JSONDecoder()
    if let attempts = try? decoder.decode([UploadAttempt].self, from: data) {
        let written = JournalJSON.attempts(attempts)
        let again = decode([UploadAttempt].self, written, from: data)
        require(again == attempts, "attempts round trip: \(attempts) -> \(written) -> \(again)")
    }
    if let files = try? decoder.decode([QueuedFile].self, from: data) {
        let written = JournalJSON.files(files)
        let again = decode([QueuedFile].self, written, from: data)
        require(again == files, "files round trip: \(files) -> \(written) -> \(again)")
    }
    if let spec = try? decoder.decode(UploadJobSpec.self, from: data) {
        var json = JournalJSON()
        guard let written = try? json.spec(spec) else {
            fatalError("a decoded spec does not encode: \(spec)")
        }
        let again = decode(UploadJobSpec.self, written, from: data)
        require(again == spec, "spec round trip: \(spec) -> \(written) -> \(again)")
    }
    if let journaled = try? decoder.decode(JournaledError.self, from: data) {
        let again = try? decoder.decode(JournaledError.self, from: JSONEncoder().encode(journaled))
        require(again == journaled, "journaled error round trip: \(journaled) -> \(String(describing: again))")
    }
    if let error = try? decoder.decode(UploadError.self, from: data) {
        let again = try? decoder.decode(UploadError.self, from: JSONEncoder().encode(error))
        require(again == error, "error round trip: \(error) -> \(String(describing: again))")
        _ = error.description
    }
    return 0
}

private func decode<T: Decodable>(_ type: T.Type, _ written: String, from input: Data) -> T {
    do {
        return try JSONDecoder().decode(type, from: Data(written.utf8))
    } catch {
        fatalError("written \(written) (from \(String(decoding: input, as: UTF8.self))) does not decode: \(error)")
    }
}

// SwiftPM renames this executable's `main` to `FuzzJournalJSON_main`: libFuzzer's driver runs from here.
@_cdecl("FuzzJournalJSON_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { fuzz($0, $1) }
}
