/// A command's answer that the keys typed after it depend on: until it comes, those keys wait
/// in ``AppState/typeAhead`` and are then applied in order, each to the state it was typed in.
public enum AwaitedResult: Hashable, Sendable {
    /// The listing of the folder the browser is going to (`l`, `h`, `~`, the first folder):
    /// ``AppMessage/directoryLoaded(_:)`` for this path.
    case listing(String)
    /// The files under a folder being selected (Space on a folder):
    /// ``AppMessage/filesCollected(_:)`` for this folder.
    case collection(String)
}
