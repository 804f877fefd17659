#ifndef SHELF_CNCURSESW_SHIM_H
#define SHELF_CNCURSESW_SHIM_H

// The wide-character API (cchar_t, get_wch, setcchar, wadd_wch) is only declared with this.
#define _XOPEN_SOURCE_EXTENDED 1

#include <locale.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <ncursesw/ncurses.h>

// Swift 6 refuses C globals (stdscr, COLORS, COLOR_PAIRS) and does not import function-like
// macros (A_BOLD, getmaxyx, COLOR_PAIR...): each gets a static inline accessor here.

static inline WINDOW *shelf_stdscr(void) { return stdscr; }
static inline FILE *shelf_stdin(void) { return stdin; }
static inline FILE *shelf_stdout(void) { return stdout; }
static inline int shelf_colors(void) { return COLORS; }
static inline int shelf_color_pairs(void) { return COLOR_PAIRS; }

static inline attr_t shelf_a_normal(void) { return A_NORMAL; }
static inline attr_t shelf_a_bold(void) { return A_BOLD; }
static inline attr_t shelf_a_reverse(void) { return A_REVERSE; }
static inline attr_t shelf_a_underline(void) { return A_UNDERLINE; }
static inline attr_t shelf_a_dim(void) { return A_DIM; }

// Key codes (plain integer macros import as well, but naming them here keeps the backend
// independent of which ones Swift happens to import).
static inline int shelf_key_code_yes(void) { return KEY_CODE_YES; }
static inline int shelf_key_resize(void) { return KEY_RESIZE; }
static inline int shelf_key_up(void) { return KEY_UP; }
static inline int shelf_key_down(void) { return KEY_DOWN; }
static inline int shelf_key_left(void) { return KEY_LEFT; }
static inline int shelf_key_right(void) { return KEY_RIGHT; }
static inline int shelf_key_home(void) { return KEY_HOME; }
static inline int shelf_key_end(void) { return KEY_END; }
static inline int shelf_key_ppage(void) { return KEY_PPAGE; }
static inline int shelf_key_npage(void) { return KEY_NPAGE; }
static inline int shelf_key_btab(void) { return KEY_BTAB; }
static inline int shelf_key_enter(void) { return KEY_ENTER; }
static inline int shelf_key_backspace(void) { return KEY_BACKSPACE; }
static inline int shelf_key_dc(void) { return KEY_DC; }
static inline int shelf_key_ic(void) { return KEY_IC; }
static inline int shelf_key_find(void) { return KEY_FIND; }
static inline int shelf_key_select(void) { return KEY_SELECT; }
static inline int shelf_key_a1(void) { return KEY_A1; }
static inline int shelf_key_a3(void) { return KEY_A3; }
static inline int shelf_key_c1(void) { return KEY_C1; }
static inline int shelf_key_c3(void) { return KEY_C3; }

// The mouse: button 1 presses and the wheel (buttons 4 and 5), nothing else, so moves do
// not flood the input.
static inline int shelf_key_mouse(void) { return KEY_MOUSE; }
static inline mmask_t shelf_mouse_mask(void) { return BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED; }
static inline mmask_t shelf_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t shelf_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t shelf_button5_pressed(void) { return BUTTON5_PRESSED; }
// How terminfo says a mouse report starts (kmous: "\033[M" or "\033[<"), or NULL. Declared
// here rather than through <term.h>, whose macros (lines, columns...) would clash.
extern char *tigetstr(const char *);
static inline const char *shelf_mouse_report_start(void) {
    char *start = tigetstr("kmous");
    return start == (char *)-1 ? NULL : start;
}

// Cursor addressing (terminfo's cup): without it (TERM=dumb) no screen can be drawn.
static inline int shelf_can_move_cursor(void) {
    const char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

static inline void shelf_getmaxyx(WINDOW *win, int *rows, int *columns) {
    int y, x;
    getmaxyx(win, y, x);
    *rows = y;
    *columns = x;
}

// COLOR_PAIR(n) keeps only 8 bits, so pair 300 would silently become 44. Pass the pair
// through the `opts` pointer instead: ncurses reads an int pair from it (extended colours),
// and the short argument is then ignored.
static inline int shelf_setcchar(cchar_t *cell, const wchar_t *text, attr_t attrs, int pair) {
    int extended = pair;
    return setcchar(cell, text, attrs, 0, &extended);
}

static inline int shelf_attr_set(WINDOW *win, attr_t attrs, int pair) {
    int extended = pair;
    return wattr_set(win, attrs, 0, &extended);
}

// Bytes waiting on a file descriptor (FIONREAD); -1 on error. A terminal that is readable
// with nothing to read has reached end of input (it was closed).
static inline int shelf_bytes_available(int fd) {
    int count = 0;
    return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

// glibc declares wcwidth only for _XOPEN_SOURCE, which the Glibc module was not built with.
// The backend checks every cell against it: it is how ncurses measures a character.
extern int wcwidth(wchar_t c);
static inline int shelf_wcwidth(wchar_t c) { return wcwidth(c); }

// mvadd_wch is a macro.
static inline int shelf_mvadd_wch(WINDOW *win, int y, int x, const cchar_t *cell) {
    return mvwadd_wch(win, y, x, cell);
}

// The terminal's size as the kernel knows it (TIOCGWINSZ), for resizing after SIGWINCH when
// ncurses' own SIGWINCH handler is not installed. Returns 0 on success.
static inline int shelf_terminal_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) {
        return -1;
    }
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

#endif
