import ArgumentParser

/// `--http1.1` or `--http2`, curl's spellings: which HTTP versions an https upload may use. The
/// last one given wins, as in curl.
enum HTTPVersionFlag: EnumerableFlag {
    /// `--http1.1`: HTTP/1.1 only (the default).
    case http1_1
    /// `--http2`: HTTP/2 when the server offers it (ALPN), HTTP/1.1 otherwise.
    case http2

    static func name(for value: HTTPVersionFlag) -> NameSpecification {
        switch value {
        case .http1_1: .customLong("http1.1")
        case .http2: .customLong("http2")
        }
    }

    static func help(for value: HTTPVersionFlag) -> ArgumentHelp? {
        switch value {
        case .http1_1: "Use HTTP/1.1 only (the default)."
        case .http2: "Offer HTTP/2 over https; many files then share one connection, but a server's small stream windows can slow large uploads."
        }
    }
}
