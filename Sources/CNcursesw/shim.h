// The wide-character ncurses API for Swift, behind `static inline` shims named cncurses_*.
//
// Swift cannot see ncurses' macros (A_BOLD, getmaxyx, KEY_F) and Swift 6 rejects C globals
// such as `stdscr`, `stdout` and `LINES` as not concurrency-safe, so everything of that
// kind is reached through a function here. SwiftPM drops the -D_XOPEN_SOURCE that
// `pkg-config --cflags ncursesw` asks for; NCURSES_WIDECHAR makes curses.h declare the
// wide-character API (cchar_t, wget_wch, setcchar) regardless.
#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <ncursesw/curses.h>
#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

// wcwidth is declared by <wchar.h> only under _XOPEN_SOURCE, which SwiftPM does not set.
extern int wcwidth(wchar_t c);

// MARK: Screen and windows

/// Creates the screen on the process's stdout/stdin (`newterm(NULL, stdout, stdin)`).
/// Returns NULL when TERM is unknown or unusable; unlike initscr it never exits.
static inline SCREEN *cncurses_newterm_stdio(void) { return newterm(NULL, stdout, stdin); }

/// The standard screen of the current SCREEN.
static inline WINDOW *cncurses_stdscr(void) { return stdscr; }

/// The current screen size in rows and columns (getmaxyx on stdscr).
static inline void cncurses_getmaxyx(WINDOW *window, int *rows, int *columns) {
    int y, x;
    getmaxyx(window, y, x);
    *rows = y;
    *columns = x;
}

static inline int cncurses_lines(void) { return LINES; }
static inline int cncurses_cols(void) { return COLS; }
static inline int cncurses_colors(void) { return COLORS; }
static inline int cncurses_color_pairs(void) { return COLOR_PAIRS; }

// MARK: Attributes and colors

static inline attr_t cncurses_A_NORMAL(void) { return A_NORMAL; }
static inline attr_t cncurses_A_BOLD(void) { return A_BOLD; }
static inline attr_t cncurses_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline attr_t cncurses_A_REVERSE(void) { return A_REVERSE; }
static inline attr_t cncurses_A_DIM(void) { return A_DIM; }
static inline attr_t cncurses_A_STANDOUT(void) { return A_STANDOUT; }
static inline int cncurses_COLOR_PAIR(int pair) { return (int)COLOR_PAIR(pair); }

/// Defines a color pair; pair numbers beyond a short use the extended API.
static inline int cncurses_init_pair(int pair, int foreground, int background) {
    return init_extended_pair(pair, foreground, background);
}

// MARK: Wide characters

/// Fills a cchar_t from up to CCHARW_MAX wide characters (a base and combining marks).
/// `count` characters are taken from `characters`; the string is NUL-terminated here.
static inline int cncurses_setcchar(cchar_t *cell, const uint32_t *characters, int count,
                                    attr_t attributes, int pair) {
    wchar_t text[CCHARW_MAX + 1];
    if (count > CCHARW_MAX) count = CCHARW_MAX;
    for (int i = 0; i < count; i++) text[i] = (wchar_t)characters[i];
    text[count] = L'\0';
    return setcchar(cell, text, attributes, (short)(pair < 32768 ? pair : 0), &pair);
}

static inline int cncurses_ccharw_max(void) { return CCHARW_MAX; }

/// Writes one complex character at (y, x) of `window` without moving on past the edge.
static inline int cncurses_mvwadd_wch(WINDOW *window, int y, int x, const cchar_t *cell) {
    return mvwadd_wch(window, y, x, cell);
}

/// Reads one key: returns OK with a character in *code, KEY_CODE_YES with a KEY_* code in
/// *code, or ERR on timeout.
static inline int cncurses_wget_wch(WINDOW *window, uint32_t *code) {
    wint_t value = 0;
    int result = wget_wch(window, &value);
    *code = (uint32_t)value;
    return result;
}

/// Pushes a character back to be read again.
static inline int cncurses_unget_wch(uint32_t code) { return unget_wch((wchar_t)code); }

/// The C library's idea of the display width of a code point (what ncurses uses).
static inline int cncurses_wcwidth(uint32_t code) { return wcwidth((wchar_t)code); }

// MARK: Keys

static inline int cncurses_KEY_CODE_YES(void) { return KEY_CODE_YES; }
static inline int cncurses_KEY_F(int n) { return KEY_F(n); }
static inline int cncurses_KEY_F0(void) { return KEY_F0; }

// MARK: Locale

/// Applies the environment's locale; when its character set is not UTF-8 (LANG unset, say),
/// tries C.UTF-8 for LC_CTYPE. Returns 1 when the character set ends up UTF-8.
static inline int cncurses_setlocale_utf8(void) {
    setlocale(LC_ALL, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0)) return 1;
    if (setlocale(LC_CTYPE, "C.UTF-8") == NULL && setlocale(LC_CTYPE, "C.utf8") == NULL) return 0;
    codeset = nl_langinfo(CODESET);
    return codeset != NULL && strcmp(codeset, "UTF-8") == 0;
}

// MARK: Terminfo

#include <ncursesw/term.h>

/// Looks `term` up in the terminfo database without starting curses. Returns 1 when it is
/// found and can address the cursor, 0 when it is found but cannot (e.g. "dumb"), -1 when
/// it is not found, -2 when no terminfo database is found.
static inline int cncurses_terminfo_check(const char *term, int fd) {
    int status = 0;
    TERMINAL *saved = cur_term;
    if (setupterm(term, fd, &status) != OK) {
        return status == -1 ? -2 : -1;
    }
    const char *cup = tigetstr("cup");
    int usable = cup != NULL && cup != (const char *)-1;
    TERMINAL *probe = set_curterm(saved);
    if (probe != NULL && probe != saved) del_curterm(probe);
    return usable ? 1 : 0;
}

#endif
