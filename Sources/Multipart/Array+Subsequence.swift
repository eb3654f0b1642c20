extension Array where Element == UInt8 {
    /// Whether the bytes contain `needle` as a contiguous run.
    ///
    /// - Parameter needle: The bytes to look for; must not be empty.
    /// - Returns: True if found.
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= count else { return false }
        var index = startIndex
        let last = endIndex - needle.count
        while index <= last {
            if self[index] == first, self[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
