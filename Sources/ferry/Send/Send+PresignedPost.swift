import ArgumentParser
import FerryConfig
import FileSystem
import FoundationEssentials
import Glibc
import Multipart
import UploadModel

extension Send {
    /// Refuses the options a presigned POST cannot go with: it names the URL, the method, the
    /// file's field and the credentials itself, and S3 takes one file per request.
    ///
    /// - Throws: `ValidationError` naming the option to drop.
    func validatePresignedPost() throws {
        guard presignedPost != nil else { return }
        let conflicts: [(Bool, String)] = [
            (formOptions.url != nil, "--url (the presigned POST names the URL)"),
            (method.uppercased() != "POST", "-X (a presigned POST is a POST)"),
            (formOptions.field != PresignedPost.fileField, "--field (S3 takes the file from the field 'file')"),
            (tus, "--tus"),
            (bundle, "--bundle (S3 takes one file per request)"),
            (formOptions.user != nil || formOptions.oauth2Bearer != nil,
             "-u and --oauth2-bearer (the signature is in the fields; S3 refuses a POST with an Authorization header too)"),
        ]
        if let (_, option) = conflicts.first(where: \.0) {
            throw ValidationError("--presigned-post cannot be combined with \(option)")
        }
        guard !files.isEmpty else { throw ValidationError("--presigned-post needs a FILE to upload") }
    }

    /// The URL and form parts to send: the options', or with `--presigned-post` the document's
    /// URL and its fields (verbatim, in its order) before any `-F` and `--form-string` parts.
    ///
    /// - Returns: The URL (empty when only resuming) and the parts.
    /// - Throws: `ValidationError` for a document that cannot be read or used, or a bad `-F`.
    func requestSource() throws -> (url: String, formArguments: [CurlFormArgument]) {
        let given = try formOptions.formArguments()
        guard let presignedPost else { return (formOptions.url ?? "", given) }
        let post: PresignedPost
        do {
            let document = presignedPost == "-"
                ? try DescriptorInput.readToEnd(STDIN_FILENO).mapError { failure in
                    ValidationError("cannot read the standard input: \(SystemError.message(for: failure.errno))")
                }.get()
                : Array(try CurlFormArgument.readText(at: presignedPost).utf8)
            post = try PresignedPost.read(document)
            _ = try UploadTarget(post.url)
        } catch {
            throw ValidationError("--presigned-post \(presignedPost): \(error)")
        }
        let headers = try formOptions.headerFields()
        if headers.contains(where: { HTTPToken.namesEqual($0.name, AuthorizationHeader.name) }) {
            throw ValidationError("--presigned-post cannot be combined with an Authorization header: the signature is in the fields")
        }
        let fields = post.fields.map { CurlFormArgument(name: $0.name, value: .text($0.value)) }
        return (post.url, fields + given)
    }
}
