import ArgumentParser
import Synchronization

/// An option's value with its place among the command line's values, so values of two options
/// can be put back in the order they were given (`-F a=1 --form-string b=@x -F c=2` sends a, b, c,
/// as curl does).
///
/// swift-argument-parser converts each value as it meets it, left to right, so the order of
/// conversion is the order on the command line.
struct OrderedArgument: ExpressibleByArgument, Sendable {
    /// The values converted so far in this process; each takes the next number.
    private static let converted = Atomic<Int>(0)

    /// The value as given.
    let text: String
    /// Its place: a later value on the command line has a larger one.
    let position: Int

    /// An argument that did not come from the command line (a profile's), at a position of its own.
    ///
    /// - Parameters:
    ///   - text: The argument.
    ///   - position: Where it sorts among the command line's (which count up from 0).
    init(text: String, position: Int) {
        self.text = text
        self.position = position
    }

    init(argument: String) {
        text = argument
        position = Self.converted.add(1, ordering: .relaxed).oldValue
    }
}
