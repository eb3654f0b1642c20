/// Why `ferry send`'s arguments cannot give the URL as curl does (``SendFileArguments/placingURL(in:)``).
public enum SendURLArgumentError: Error, Equatable, CustomStringConvertible {
    /// Two arguments among the FILEs are URLs.
    case twoURLs(String, String)
    /// A URL among the FILEs, and `--url` too.
    case urlGivenTwice(String)

    public var description: String {
        switch self {
        case let .twoURLs(first, second):
            "two URLs, '\(first)' and '\(second)': ferry send uploads to one (a FILE of such a name: ./NAME, or after --)"
        case let .urlGivenTwice(url):
            "'\(url)' is a URL, and --url gives one too: give it once (a FILE of that name: ./NAME, or after --)"
        }
    }
}
