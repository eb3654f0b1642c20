import FileSystem
import FoundationEssentials
import Multipart
import UploadModel

/// A shell command line that makes curl send what a job sends: the URL, the method, the user's
/// headers, and every part in order, text as `--form-string` (taken as it is) and files as `-F`
/// with the filename and the content type Ferry sends, so curl's own guesses never differ. The
/// connection options curl has too follow (for https, `-k`, `--cacert`, `--capath`, `--cert`,
/// `--key`; `-L`, `--http2`); proxies come from the same environment variables for both.
///
/// Secret header values (``NameValuePair/isSecretHeader``) and a password in the URL are
/// written as ``mask`` unless asked for. Arguments are single-quoted for a POSIX shell where
/// they need it; a path or filename that is not UTF-8 is written as its raw bytes.
public struct CurlCommand: Sendable {
    /// What stands for a secret that is not shown.
    public static let mask = "********"

    /// The command's arguments after `curl`, as bytes.
    public let arguments: [[UInt8]]
    /// Whether a secret was written as ``mask``.
    public let hidesSecrets: Bool

    /// Makes the command for a multipart job.
    ///
    /// - Parameters:
    ///   - spec: The job (not a tus job: tus is a conversation of requests, not one).
    ///   - mimeTypes: The table Ferry takes content types from.
    ///   - showsSecrets: Whether secret values are written as they are.
    public init(spec: UploadJobSpec, mimeTypes: MIMETypes = .standard, showsSecrets: Bool) {
        var arguments: [[UInt8]] = []
        let url = showsSecrets ? spec.url : spec.url.replacingURLPassword(with: Self.mask)
        hidesSecrets = url != spec.url || (!showsSecrets && spec.headers.contains(where: \.isSecretHeader))
        func add(_ texts: String...) { arguments += texts.map { Array($0.utf8) } }
        add(url)
        if spec.method != "POST" { add("-X", spec.method) }
        for header in spec.headers {
            add("-H", "\(header.name): \(header.isSecretHeader && !showsSecrets ? Self.mask : header.value)")
        }
        let connection = spec.connection
        if spec.url.lowercased().hasPrefix("https:") || connection.followsRedirects {
            if !connection.verifiesCertificates { add("-k") }
            let files = [("--cacert", connection.certificateAuthorityFile), ("--capath", connection.certificateAuthorityDirectory),
                         ("--cert", connection.clientCertificateFile), ("--key", connection.clientKeyFile)]
            for case let (option, path?) in files { arguments += [Array(option.utf8), FileSystemName.bytes(of: path)] }
        }
        if connection.followsRedirects { add("-L") }
        if connection.offersHTTP2 { add("--http2") }
        // curl sends the fields (and reads a 104 as any informational answer); it does not resume.
        if spec.sendsResumably {
            for field in ResumableUploadFields.creationFields { add("-H", "\(field.name): \(field.value)") }
        }
        for part in FormBuilder().form(for: spec).parts {
            switch part.content {
            case let .text(value):
                add("--form-string", "\(part.name)=\(value)")
            case let .file(source):
                guard case let .path(path) = source else { continue }
                let filename = part.filename ?? PathName.lastComponent(of: path)
                let type = mimeTypes.contentType(override: part.contentType, filename: filename)
                add("-F")
                arguments.append(Array("\(part.name)=@".utf8) + Self.curlQuoted(FileSystemName.bytes(of: path))
                    + Array(";filename=".utf8) + Self.curlQuoted(FileSystemName.bytes(of: filename))
                    + Array(";type=\(type)".utf8))  // curl takes a quoted type with its quotes
            }
        }
        self.arguments = arguments
    }

    /// The whole line, `curl` first, each argument quoted for a POSIX shell where it needs it.
    public var line: [UInt8] {
        ([Array("curl".utf8)] + arguments.map(Self.shellQuoted)).joined(separator: [0x20]).map { $0 }
    }

    /// A value inside a `-F` argument in double quotes, `"` and `\` escaped with `\`, as curl
    /// reads a quoted `-F` value (so `;` and `"` in it are the value's own).
    static func curlQuoted(_ bytes: [UInt8]) -> [UInt8] {
        var quoted: [UInt8] = [0x22]
        for byte in bytes {
            if byte == 0x22 || byte == 0x5C { quoted.append(0x5C) }
            quoted.append(byte)
        }
        return quoted + [0x22]
    }

    /// An argument as a POSIX shell reads it back: as it is when it holds only characters no
    /// shell treats specially, else in single quotes (a `'` written `'\''`).
    static func shellQuoted(_ bytes: [UInt8]) -> [UInt8] {
        let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-".utf8)
        if !bytes.isEmpty, bytes.allSatisfy(plain.contains) { return bytes }
        var quoted: [UInt8] = [0x27]
        for byte in bytes {
            if byte == 0x27 { quoted += Array("'\\''".utf8) } else { quoted.append(byte) }
        }
        return quoted + [0x27]
    }
}
