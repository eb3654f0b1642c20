import FileSystem
import Multipart
import TerminalUI
import TextFormat

extension String {
    /// The path (or name) as a screen shows it: the file-system bytes it stands for
    /// (``Multipart/FileSystemName``) with every byte that is not valid UTF-8 as `\xNN` and
    /// control characters escaped, as `DisplayWidth.displayable(bytes:)` makes them.
    ///
    /// `caf\u{EFE9}.txt` (the name `caf` E9 `.txt` read from the disk) shows as `caf\xE9.txt`.
    public var displayablePath: String {
        DisplayWidth.displayable(bytes: FileSystemName.bytes(of: self))
    }

    /// The last path component (``Multipart/PathName/lastComponent(of:)``, the filename a
    /// file part is sent under) as a screen shows it, like ``displayablePath``.
    public var displayableLastComponent: String {
        PathName.lastComponent(of: self).displayablePath
    }
}
