extension String {
    /// This URL with the password of its `user:password@` part replaced — by `replacement`, or
    /// removed with its colon when nil; the URL as it is when it has no password.
    ///
    /// - Parameter replacement: What stands for the password (a mask), or nil to remove it.
    /// - Returns: The URL.
    public func replacingURLPassword(with replacement: String?) -> String {
        let authorityStart = firstRange(of: "://")?.upperBound ?? startIndex
        let authorityEnd = self[authorityStart...].firstIndex(where: { "/?#".contains($0) }) ?? endIndex
        guard let at = self[authorityStart..<authorityEnd].lastIndex(of: "@"),
              let colon = self[authorityStart..<at].firstIndex(of: ":") else { return self }
        let user = String(self[..<colon])
        let rest = String(self[at...])
        guard let replacement else { return user + rest }
        return user + ":" + replacement + rest
    }
}
