import CNcursesw
import TerminalUI

extension NcursesTerminal {
    /// Paints a frame: only the cells that differ from the previous frame (everything after
    /// a size change or ``invalidate()``), then places or hides the cursor and refreshes.
    ///
    /// A buffer of another size than the screen is clipped. Each grapheme is checked
    /// against the C library's `wcwidth` (which ncurses and most terminals follow): parts it
    /// would draw wider than the buffer planned (the later members of a ZWJ sequence, say)
    /// are dropped, and columns it would leave unpainted (a `❤️` that the C library counts
    /// as one column) are padded with spaces, so the screen always matches the buffer.
    ///
    /// Nothing is drawn while the terminal is the shell's (``suspend()``).
    ///
    /// - Parameter buffer: The frame.
    public func draw(_ buffer: CellBuffer) {
        guard isActive, !isSuspended, let window else { return }
        resumeAfterSignalIfNeeded()
        let screenSize = size
        let diff = buffer.diff(from: previous)
        if diff.isFullRepaint || needsClear {
            werase(window)
            if needsClear { clearok(window, true) }
            needsClear = false
        }
        for change in diff.changes where change.y < screenSize.height {
            var x = change.x
            for cell in change.cells {
                defer { x += 1 }
                if cell.isContinuation || x >= screenSize.width { continue }
                paint(cell, x: x, y: change.y, screenWidth: screenSize.width, window: window)
            }
        }
        if let cursor = buffer.cursor, cursor.x >= 0, cursor.y >= 0, cursor.x < screenSize.width, cursor.y < screenSize.height {
            if !cursorVisible {
                curs_set(1)
                cursorVisible = true
            }
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else if cursorVisible {
            curs_set(0)
            cursorVisible = false
        }
        wrefresh(window)
        previous = buffer
    }

    private func paint(_ cell: Cell, x: Int, y: Int, screenWidth: Int, window: UnsafeMutablePointer<WINDOW>) {
        let (attributes, pair) = attributesAndPair(for: cell.style)
        let columns = min(cell.width, screenWidth - x)
        var used = 0
        if columns == cell.width {
            for group in terminalCells(for: cell.content, width: cell.width) {
                put(group.scalars, at: x + used, y: y, attributes: attributes, pair: pair, window: window)
                used += group.width
            }
        }
        while used < columns {
            put([0x20], at: x + used, y: y, attributes: attributes, pair: pair, window: window)
            used += 1
        }
    }

    private func put(_ scalars: [UInt32], at x: Int, y: Int, attributes: attr_t, pair: Int32, window: UnsafeMutablePointer<WINDOW>) {
        var cchar = cchar_t()
        _ = scalars.withUnsafeBufferPointer { pointer in
            cncurses_setcchar(&cchar, pointer.baseAddress, Int32(pointer.count), attributes, pair)
        }
        _ = cncurses_mvwadd_wch(window, Int32(y), Int32(x), &cchar)
    }

    /// Splits a grapheme into the cells the C library (and so ncurses) sees: each scalar
    /// with a width starts a cell, zero-width scalars join the cell before (up to
    /// CCHARW_MAX). Keeps whole cells while they fit in `width` columns.
    func terminalCells(for character: Character, width: Int) -> [(scalars: [UInt32], width: Int)] {
        if character.utf8.count == 1, let byte = character.utf8.first, byte >= 0x20, byte < 0x7F {
            return [([UInt32(byte)], 1)]
        }
        guard supportsUnicode else { return [([0x3F], 1)] }
        let maximum = Int(cncurses_ccharw_max())
        var cells: [(scalars: [UInt32], width: Int)] = []
        for scalar in character.unicodeScalars {
            let scalarWidth = Int(cncurses_wcwidth(scalar.value))
            if scalarWidth < 0 { return [([0x3F], 1)] }
            if scalarWidth == 0 {
                if !cells.isEmpty && cells[cells.count - 1].scalars.count < maximum {
                    cells[cells.count - 1].scalars.append(scalar.value)
                }
            } else {
                cells.append(([scalar.value], scalarWidth))
            }
        }
        var kept: [(scalars: [UInt32], width: Int)] = []
        var used = 0
        for cell in cells {
            guard used + cell.width <= width else { break }
            kept.append(cell)
            used += cell.width
        }
        if var last = kept.popLast() {
            while last.scalars.count > 1 && last.scalars.last == 0x200D { last.scalars.removeLast() }
            kept.append(last)
        }
        return kept.isEmpty ? [([0x3F], 1)] : kept
    }

    func attributesAndPair(for style: Style) -> (attr_t, Int32) {
        var attributes = cncurses_A_NORMAL()
        if style.bold { attributes |= cncurses_A_BOLD() }
        if style.underline { attributes |= cncurses_A_UNDERLINE() }
        if style.reverse { attributes |= cncurses_A_REVERSE() }
        if style.dim { attributes |= cncurses_A_DIM() }
        guard case .color(let hasBright) = colorMode else { return (attributes, 0) }
        var foreground = style.foreground
        var background = style.background
        if !hasBright {
            if foreground.isBright {
                foreground = foreground.basic
                attributes |= cncurses_A_BOLD()
            }
            background = background.basic
        }
        return (attributes, colorPair(foreground: foreground, background: background))
    }

    /// The color pair for two colors, defined on first use; pair 0 (the terminal's default
    /// colors) when both are default or the terminal has no pairs left.
    func colorPair(foreground: Color, background: Color) -> Int32 {
        if foreground == .default && background == .default { return 0 }
        let key = ColorPairKey(foreground: foreground, background: background)
        if let pair = colorPairs[key] { return pair }
        guard nextColorPair < Int32(cncurses_color_pairs()) else { return 0 }
        let pair = nextColorPair
        let fallbackForeground: Int32 = hasDefaultColors ? -1 : 7
        let fallbackBackground: Int32 = hasDefaultColors ? -1 : 0
        let fg = foreground.ansiIndex.map(Int32.init) ?? fallbackForeground
        let bg = background.ansiIndex.map(Int32.init) ?? fallbackBackground
        guard cncurses_init_pair(pair, fg, bg) == OK else { return 0 }
        nextColorPair += 1
        colorPairs[key] = pair
        return pair
    }
}
