import TerminalUI
import UploadModel

/// The file browser's state: the directory shown, how it is filtered and sorted, the cursor,
/// and the files selected (which may lie in other directories).
public struct BrowserState: Hashable, Sendable {
    /// The directory shown.
    public var directory: String
    /// Every entry of the directory, unsorted.
    public private(set) var entries: [BrowserEntry] = []
    /// Indices into `entries` of the rows shown, in order (hidden and filtered out removed).
    public private(set) var visible: [Int] = []
    /// The cursor and scroll offset over `visible`.
    public var scroll = ListScroll()
    /// The case-insensitive filter; empty shows everything.
    public private(set) var filter = ""
    /// The filter being typed, while `/` is active.
    public var filterEditor: LineEditor?
    /// Whether dot files are shown.
    public private(set) var showsHidden = false
    /// The order of entries.
    public private(set) var sort: SortMode = .name
    /// Why the last directory could not be opened, shown inline.
    public var error: String?
    /// The selected files by path.
    public private(set) var selection: [String: QueuedFile] = [:]
    /// The selected paths in the order they were selected.
    public private(set) var selectionOrder: [String] = []
    /// The sum of the selected files' sizes.
    public private(set) var selectedBytes: Int64 = 0
    /// How many selected files each directory holds directly, by the directory's path.
    private var selectedCountByDirectory: [String: Int] = [:]
    /// Folders selected whole (Space on them), with how many files they held then.
    private var wholeFolders: [String: Int] = [:]

    /// Creates a browser on a directory (not yet read).
    ///
    /// - Parameter directory: The directory.
    public init(directory: String) {
        self.directory = directory
    }

    /// The entry under the cursor, if any.
    public var current: BrowserEntry? {
        scroll.selection.map { entries[visible[$0]] }
    }

    /// Why no entry is shown, when none is: the folder is empty, the filter matches nothing,
    /// or every entry is hidden.
    public var whyNothingShown: String {
        if entries.isEmpty { return "the folder is empty" }
        if !filter.isEmpty { return "nothing matches the filter \"\(filter)\" (Esc clears it)" }
        return "only hidden files here (. shows them)"
    }

    /// The entries shown, in order.
    public var shownEntries: [BrowserEntry] { visible.map { entries[$0] } }

    /// The selected files, in selection order.
    public var selectedFiles: [QueuedFile] { selectionOrder.compactMap { selection[$0] } }

    /// Replaces the entries with a freshly read directory.
    ///
    /// - Parameter listing: The listing; one with an error keeps the current entries.
    public mutating func load(_ listing: DirectoryListing) {
        if let error = listing.error {
            self.error = error
            return
        }
        error = nil
        let isNewDirectory = listing.path != directory
        directory = listing.path
        entries = listing.entries
        if isNewDirectory {
            filter = ""
            filterEditor = nil
            scroll.select(0)
        } else {
            deselectVanishedFiles()
        }
        refresh(focusing: listing.focusName)
    }

    /// Deselects the selected files of the folder shown that its entries no longer hold
    /// (removed or renamed since they were selected).
    private mutating func deselectVanishedFiles() {
        guard selectedCountByDirectory[directory] != nil else { return }
        let present = Set(entries.map(\.path))
        let vanished = selectionOrder.filter { !present.contains($0) && DirectoryPath.parent(of: $0).directory == directory }
        deselect(vanished)
    }

    /// Sets the filter (from the filter editor).
    ///
    /// - Parameter text: The filter text.
    public mutating func setFilter(_ text: String) {
        filter = text
        refresh(focusing: nil)
        scroll.select(0)
    }

    /// Shows or hides dot files.
    public mutating func toggleHidden() {
        showsHidden.toggle()
        refresh(focusing: current?.name)
    }

    /// Cycles the sort order.
    public mutating func cycleSort() {
        sort = sort.next
        refresh(focusing: current?.name)
    }

    /// Whether a path is selected.
    ///
    /// - Parameter path: The path.
    /// - Returns: Whether it is selected.
    public func isSelected(_ path: String) -> Bool { selection[path] != nil }

    /// Whether any selected file lies under a folder, at any depth.
    ///
    /// - Parameter folder: The folder's path.
    /// - Returns: Whether the folder holds part of the selection.
    public func hasSelection(under folder: String) -> Bool {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return selectedCountByDirectory.keys.contains { $0 == folder || $0.hasPrefix(prefix) }
    }

    /// How many selected files lie under a folder, at any depth.
    ///
    /// - Parameter folder: The folder's path.
    /// - Returns: The count.
    public func selectedCount(under folder: String) -> Int {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return selectedCountByDirectory.reduce(0) { $0 + ($1.key == folder || $1.key.hasPrefix(prefix) ? $1.value : 0) }
    }

    /// Whether every file found under a folder when it was selected whole (Space on it) is still
    /// selected; false for a folder only part of which was picked.
    ///
    /// - Parameter folder: The folder's path.
    /// - Returns: Whether it is wholly selected.
    public func isWhollySelected(_ folder: String) -> Bool {
        guard let count = wholeFolders[folder] else { return false }
        return selectedCount(under: folder) >= count
    }

    /// Selects every file collected under a folder, and remembers the folder as selected whole.
    ///
    /// - Parameter collection: The folder's files.
    public mutating func selectWhole(_ collection: FileCollection) {
        select(collection.files)
        wholeFolders[collection.directory] = collection.files.count
    }

    /// Selects files (already selected ones stay as they are).
    ///
    /// - Parameter files: The files.
    public mutating func select(_ files: [QueuedFile]) {
        for file in files where selection[file.path] == nil {
            selection[file.path] = file
            selectionOrder.append(file.path)
            selectedBytes += file.size ?? 0
            selectedCountByDirectory[DirectoryPath.parent(of: file.path).directory, default: 0] += 1
        }
    }

    /// Deselects files.
    ///
    /// - Parameter paths: The paths.
    public mutating func deselect(_ paths: [String]) {
        var removed = Set<String>()
        for path in paths {
            guard let file = selection.removeValue(forKey: path) else { continue }
            selectedBytes -= file.size ?? 0
            removed.insert(path)
            let directory = DirectoryPath.parent(of: path).directory
            let remaining = (selectedCountByDirectory[directory] ?? 1) - 1
            selectedCountByDirectory[directory] = remaining > 0 ? remaining : nil
        }
        if !removed.isEmpty { selectionOrder.removeAll { removed.contains($0) } }
    }

    /// Clears the selection.
    public mutating func clearSelection() {
        selection = [:]
        selectionOrder = []
        selectedBytes = 0
        selectedCountByDirectory = [:]
        wholeFolders = [:]
    }

    private mutating func refresh(focusing name: String?) {
        let needle = filter.lowercased()
        let sort = self.sort
        let entries = self.entries
        let showsHidden = self.showsHidden
        var indices = entries.indices.filter { index in
            let entry = entries[index]
            if !showsHidden && entry.isHidden { return false }
            return needle.isEmpty || entry.foldedName.contains(needle)
        }
        // Folded names as bytes once, not once per comparison.
        let keys = entries.map { Array($0.foldedName.utf8) }
        indices.sort { lhs, rhs in
            let a = entries[lhs], b = entries[rhs]
            if a.isDirectory != b.isDirectory { return a.isDirectory }
            switch sort {
            case .name: break
            case .size where a.size != b.size: return a.size > b.size
            case .modified where a.modificationTimeNanoseconds != b.modificationTimeNanoseconds:
                return (a.modificationTimeNanoseconds ?? 0) > (b.modificationTimeNanoseconds ?? 0)
            default: break
            }
            let order = NaturalOrder.compare(keys[lhs], keys[rhs])
            return order == 0 ? a.name < b.name : order < 0
        }
        visible = indices
        scroll.setCount(indices.count)
        if let name, let row = indices.firstIndex(where: { entries[$0].name == name }) {
            scroll.select(row)
        }
    }
}
