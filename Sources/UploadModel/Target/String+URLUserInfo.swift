extension String {
    /// This URL with the password of its `user:password@` part replaced — by `replacement`, or
    /// removed with its colon when nil; the URL as it is when it has no password.
    ///
    /// - Parameter replacement: What stands for the password (a mask), or nil to remove it.
    /// - Returns: The URL.
    public func replacingURLPassword(with replacement: String?) -> String {
        guard let userInfo = urlUserInfoRange, let colon = self[userInfo].firstIndex(of: ":") else { return self }
        let user = String(self[..<colon])
        let rest = String(self[index(before: userInfo.upperBound)...])
        guard let replacement else { return user + rest }
        return user + ":" + replacement + rest
    }

    /// This URL without its `user[:password]@` part (for a text that must not show credentials).
    ///
    /// - Returns: The URL.
    package func removingURLUserInfo() -> String {
        guard let userInfo = urlUserInfoRange else { return self }
        return String(self[..<userInfo.lowerBound]) + self[userInfo.upperBound...]
    }

    /// Where this URL's `user[:password]@` part is, its `@` included: after `://` (or from the
    /// start) up to the authority's last `@`, before any `/`, `?` or `#`.
    private var urlUserInfoRange: Range<Index>? {
        let authorityStart = firstRange(of: "://")?.upperBound ?? startIndex
        let authorityEnd = self[authorityStart...].firstIndex(where: { "/?#".contains($0) }) ?? endIndex
        guard let at = self[authorityStart..<authorityEnd].lastIndex(of: "@") else { return nil }
        return authorityStart..<index(after: at)
    }
}
