/// Who may use a receiver: anyone who can reach it, or only clients presenting a token.
///
/// Off loopback a receiver **must** have a token unless the configuration says
/// ``ReceiverConfiguration/allowsUnauthenticatedNetworkAccess`` (`ferry serve --no-auth`).
public enum ReceiverAccess: Sendable, Hashable {
    /// Every request is served (loopback, `ferry --demo`, tests, or `--no-auth`).
    case open
    /// Every request, whatever its route, needs `Authorization: Bearer TOKEN` or Basic with the
    /// token as password; others get 401.
    case token(String)
}
