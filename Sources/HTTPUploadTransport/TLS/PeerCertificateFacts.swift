import NIOSSL

/// What a server's (leaf) certificate says about itself, as far as explaining a failed
/// verification needs it: its validity period, whether it signed itself, its issuer and the
/// names it is for.
struct PeerCertificateFacts: Sendable, Equatable {
    /// Valid from (seconds since 1970, UTC).
    var notValidBefore: Int64
    /// Valid until (seconds since 1970, UTC).
    var notValidAfter: Int64
    /// Whether its issuer is its own subject (a self-signed certificate).
    var isSelfIssued: Bool
    /// The issuer's common name (or organization), if it has one.
    var issuer: String?
    /// The DNS names and IP addresses it is for (its subject alternative names; its common name
    /// when it has none).
    var names: [String]

    /// Facts given one by one.
    init(notValidBefore: Int64, notValidAfter: Int64, isSelfIssued: Bool, issuer: String?, names: [String]) {
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        self.isSelfIssued = isSelfIssued
        self.issuer = issuer
        self.names = names
    }

    /// The facts of a certificate NIOSSL parsed.
    ///
    /// - Parameter certificate: The server's certificate.
    init(_ certificate: NIOSSLCertificate) {
        let subject = certificate.subjectName
        let issuerName = certificate.issuerName
        var names: [String] = []
        for name in certificate._subjectAlternativeNames() {
            switch name.nameType {
            case .dnsName:
                names.append(String(decoding: name.contents, as: UTF8.self))
            case .ipAddress:
                names.append(Self.address(Array(name.contents)))
            default:
                continue
            }
        }
        if names.isEmpty, let common = subject.first(where: { $0.type == .commonName }) {
            names = [common.value]
        }
        self.init(
            notValidBefore: Int64(certificate.notValidBefore),
            notValidAfter: Int64(certificate.notValidAfter),
            isSelfIssued: !subject.isEmpty && subject == issuerName,
            issuer: (issuerName.first { $0.type == .commonName } ?? issuerName.first { $0.type == .organization })?.value,
            names: names
        )
    }

    /// An IPv4 or IPv6 address from its bytes.
    private static func address(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        guard bytes.count == 16 else { return bytes.map { String($0, radix: 16) }.joined(separator: ":") }
        return stride(from: 0, to: 16, by: 2)
            .map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
