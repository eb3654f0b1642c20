import Testing
import TerminalUI
import TestSupport

@Suite("TooSmall")
struct TooSmallTests {
    @Test func twoCenteredLines() {
        expectLines(render(TooSmall(minimum: Size(width: 60, height: 16)), width: 30, height: 4), [
            "",
            "      Terminal too small",
            "    need 60x16, have 30x4",
            "",
        ])
    }

    @Test func oneRow() {
        expectLines(render(TooSmall(minimum: Size(width: 60, height: 16)), width: 30, height: 1), ["    Too small: need 60x16"])
    }

    @Test func veryNarrow() {
        expectLines(render(TooSmall(minimum: Size(width: 60, height: 16)), width: 6, height: 2), ["Termi…", "need …"])
    }
}
