import Testing

/// Checks of what a user reads.
package enum PlainWords {
    /// Checks that a text a user sees is in words: no Swift type or library names, no BoringSSL
    /// error codes, no build paths.
    package static func expectInPlainWords(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for forbidden in ["NIOSSL", "BoringSSL", "error:1000", ".build", "checkouts", "Error(", "handshakeFailed",
                          "sslError", "NIO", "Optional(", "OPENSSL_internal"] {
            #expect(!text.contains(forbidden), "\(forbidden) in \(text)", sourceLocation: sourceLocation)
        }
    }
}
