import CNcursesw
import Dispatch
import Glibc
import TerminalKit
import TerminalUI

/// The ncurses backend: turns the terminal into a screen, copies canvases to it, and reads
/// keys. This and `TerminalRestorer` are the only code that knows ncurses exists.
///
/// Main actor only (ncurses is not thread-safe). Call `start()` before drawing and `stop()`
/// before exiting; both are safe to repeat, and `start()` after `stop()` resumes the screen
/// (to hand the terminal to `$EDITOR` in between, say).
@MainActor
public final class NcursesScreen {
    public enum StartError: Error, CustomStringConvertible {
        /// stdin or stdout is not a terminal (redirected, piped, /dev/null).
        case notATerminal
        case cannotOpenTerminal(term: String?)
        /// The terminal cannot move the cursor (TERM=dumb): it would get one garbled line.
        case cannotMoveCursor(term: String?)

        public var description: String {
            switch self {
            case .notATerminal:
                return "standard input and output must be a terminal to show the interface"
            case .cannotOpenTerminal(let term):
                return "cannot use the terminal (TERM=\(term ?? "unset")): is this a terminal, and is TERM known to ncurses?"
            case .cannotMoveCursor(let term):
                return "the terminal TERM=\(term ?? "unset") cannot move the cursor, and Shelf draws a full screen: use a terminal that can (TERM=xterm-256color, say)"
            }
        }
    }

    /// How colours are drawn, chosen by `start()` from COLORS and NO_COLOR.
    public private(set) var colorMode: ColorMode = .none
    public private(set) var isActive = false

    private var screen: OpaquePointer?
    private var window: UnsafeMutablePointer<WINDOW>? { shelf_stdscr() }
    private var hasDefaultColors = false
    private var pairs: [PairKey: Int32] = [:]
    private var nextPair: Int32 = 1
    private var pairLimit: Int32 = 0
    private var pairsExhausted = false
    private var cursorVisible: Int32 = -1
    private var lastSize: Size?
    /// Reads in a row that found nothing to read (see `ScreenEventSources.input`).
    var emptyInputReads = 0

    private struct PairKey: Hashable {
        var foreground: Int32
        var background: Int32
    }

    /// Whether clicks and the wheel are reported (`--no-mouse` turns them off, leaving the
    /// terminal's own selection alone).
    private let usesMouse: Bool

    public init(mouse: Bool = true) { usesMouse = mouse }

    /// Asks the terminal for button presses and the wheel, reported at once (no click delay).
    private func enableMouse() {
        guard usesMouse else { return }
        mouseinterval(0)
        // Off first: after endwin (the editor ran) ncurses would think the mask still set.
        mousemask(0, nil)
        mousemask(shelf_mouse_mask(), nil)
    }

    /// Sets up the terminal: locale, raw mode (Ctrl-C arrives as `.ctrl("c")`), no echo, keypad
    /// keys, non-blocking reads, a short Esc delay, hidden cursor, colours when available.
    /// `noColor` is NO_COLOR's value (read from the environment by default).
    public func start(noColor: String? = NcursesScreen.environment("NO_COLOR")) throws(StartError) {
        guard !isActive else { return }
        if screen != nil {
            // Started before and stopped (e.g. to run an editor): a refresh after endwin puts
            // ncurses back in program mode; the next draw repaints everything.
            isActive = true
            lastSize = nil
            cursorVisible = -1
            setCursorVisible(false)
            enableMouse()
            wrefresh(window)
            return
        }
        // Not a terminal: ncurses would start, but no key could ever arrive (epoll cannot
        // watch /dev/null or a file), so say so instead of hanging.
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        setlocale(LC_ALL, "")
        // newterm, unlike initscr, returns nil instead of exiting when the terminal is unusable.
        guard let screen = newterm(nil, shelf_stdout(), shelf_stdin()) else {
            throw .cannotOpenTerminal(term: NcursesScreen.environment("TERM"))
        }
        // Asked of the terminal's description before anything is drawn: newterm sends nothing.
        guard shelf_can_move_cursor() != 0 else {
            endwin()
            delscreen(screen)
            throw .cannotMoveCursor(term: NcursesScreen.environment("TERM"))
        }
        self.screen = screen
        set_term(screen)
        isActive = true
        raw()
        noecho()
        nonl()
        keypad(window, true)
        defineAlternateKeys()
        enableMouse()
        nodelay(window, true)
        set_escdelay(25)
        intrflush(window, false)
        cursorVisible = -1
        setCursorVisible(false)

        var colorCount: Int32 = 0
        if has_colors() && start_color() == OK {
            hasDefaultColors = use_default_colors() == OK
            colorCount = shelf_colors()
            pairLimit = min(shelf_color_pairs(), 65536)
        }
        colorMode = ColorMode(colorCount: Int(colorCount), noColor: noColor)
        pairs = [:]
        nextPair = 1
        lastSize = nil
    }

    /// Leaves the terminal as it was (endwin). Safe to call twice, or without `start()`.
    public func stop() {
        guard isActive else { return }
        isActive = false
        setCursorVisible(true)
        endwin()
    }

    /// The screen's size in cells, as ncurses knows it.
    public var size: Size {
        guard isActive else { return .zero }
        var rows: Int32 = 0, columns: Int32 = 0
        shelf_getmaxyx(window, &rows, &columns)
        return Size(width: Int(columns), height: Int(rows))
    }

    /// Asks the kernel for the terminal size and resizes ncurses to it. Call it on SIGWINCH
    /// when a dispatch source (not ncurses' own handler) owns that signal. Returns the size.
    @discardableResult
    public func updateSize() -> Size {
        guard isActive else { return .zero }
        var rows: Int32 = 0, columns: Int32 = 0
        if shelf_terminal_size(STDOUT_FILENO, &rows, &columns) == 0,
           Size(width: Int(columns), height: Int(rows)) != size {
            resize_term(rows, columns)
        }
        return size
    }

    // MARK: Drawing

    /// Copies `canvas` to the screen (clipped to the screen), places the terminal cursor at
    /// `cursor` or hides it, and updates the terminal. ncurses sends only what changed.
    public func draw(_ canvas: Canvas, cursor: Point? = nil) {
        guard isActive, let window else { return }
        let screenSize = size
        if screenSize != lastSize || pairsExhausted {
            if pairsExhausted {
                pairs = [:]
                nextPair = 1
                pairsExhausted = false
            }
            werase(window)
            clearok(window, true)
            lastSize = screenSize
        }
        let rows = min(canvas.height, screenSize.height)
        let columns = min(canvas.width, screenSize.width)
        var cell = cchar_t()
        var text: [wchar_t] = []
        text.reserveCapacity(8)
        for y in 0..<rows {
            for x in 0..<columns {
                let source = canvas[x, y]
                if source.isContinuation { continue }
                fillText(&text, for: source, fits: x + source.width <= columns)
                let (attributes, pair) = attributesAndPair(for: source.style)
                text.withUnsafeBufferPointer { buffer in
                    _ = shelf_setcchar(&cell, buffer.baseAddress, attributes, pair)
                }
                // Writing the bottom right cell reports ERR (the cursor cannot advance) but
                // the cell is drawn.
                _ = shelf_mvadd_wch(window, Int32(y), Int32(x), &cell)
            }
        }
        if let cursor, cursor.x >= 0, cursor.y >= 0, cursor.x < screenSize.width, cursor.y < screenSize.height {
            wmove(window, Int32(cursor.y), Int32(cursor.x))
            setCursorVisible(true)
        } else {
            setCursorVisible(false)
        }
        wnoutrefresh(window)
        doupdate()
    }

    /// The wide characters for one cell, zero-terminated. Characters the C library would
    /// measure differently from the canvas (unknown to its tables, or unprintable) are
    /// replaced by "?" padded to the cell's width, so the layout never shifts.
    private func fillText(_ text: inout [wchar_t], for cell: Cell, fits: Bool) {
        text.removeAll(keepingCapacity: true)
        let scalars = cell.text.unicodeScalars
        if let first = scalars.first, fits, Int(shelf_wcwidth(wchar_t(bitPattern: first.value))) == cell.width {
            // ncurses keeps a spacing character and up to four combining ones.
            for scalar in scalars.prefix(5) { text.append(wchar_t(bitPattern: scalar.value)) }
        } else if cell.width == 2 && fits {
            text.append(wchar_t(0xFF1F))  // fullwidth "？": two columns everywhere
        } else {
            text.append(cell.text.isEmpty || cell.text == " " ? 32 : 63)
        }
        text.append(0)
    }

    private func attributesAndPair(for style: Style) -> (attr_t, Int32) {
        var attributes = shelf_a_normal()
        if style.bold { attributes |= shelf_a_bold() }
        if style.reverse { attributes |= shelf_a_reverse() }
        if style.underline { attributes |= shelf_a_underline() }
        if style.dim { attributes |= shelf_a_dim() }
        guard colorMode.usesColor else { return (attributes, 0) }
        let foreground = colorMode.paletteIndex(for: style.foreground).map(Int32.init) ?? (hasDefaultColors ? -1 : 7)
        let background = colorMode.paletteIndex(for: style.background).map(Int32.init) ?? (hasDefaultColors ? -1 : 0)
        return (attributes, pair(foreground: foreground, background: background))
    }

    /// The colour pair for (foreground, background), allocated on first use. When every pair
    /// is taken the cell falls back to the default pair for this frame, and the next frame
    /// starts a fresh cache with a full repaint.
    private func pair(foreground: Int32, background: Int32) -> Int32 {
        if foreground == -1 && background == -1 { return 0 }
        if !hasDefaultColors && foreground == 7 && background == 0 { return 0 }
        let key = PairKey(foreground: foreground, background: background)
        if let pair = pairs[key] { return pair }
        guard nextPair < pairLimit else {
            pairsExhausted = true
            return 0
        }
        let pair = nextPair
        nextPair += 1
        init_extended_pair(pair, foreground, background)
        pairs[key] = pair
        return pair
    }

    private func setCursorVisible(_ visible: Bool) {
        let wanted: Int32 = visible ? 1 : 0
        guard wanted != cursorVisible else { return }
        cursorVisible = wanted
        curs_set(wanted)
    }

    /// Writes an escape sequence that the terminal acts on without drawing it (OSC 52),
    /// after whatever ncurses has buffered.
    public func send(_ sequence: String) {
        guard isActive else { return }
        fflush(shelf_stdout())
        var bytes = Array(sequence.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    // MARK: Input

    /// Every key waiting in the input, without blocking (empty when there is none).
    /// Scalars that continue the previous character (combining marks, joiners, variation
    /// selectors, a flag's second half) are merged into it.
    public func readKeys() -> [Key] {
        guard isActive, let window else { return [] }
        var keys: [Key] = []
        var value: wint_t = 0
        for _ in 0..<4096 {
            let result = wget_wch(window, &value)
            if result == ERR { break }
            if result == KEY_CODE_YES && Int32(bitPattern: value) == shelf_key_mouse() {
                if let event = readMouse() {
                    keys.append(.mouse(event))
                } else if !usesMouse {
                    // Mouse off (--no-mouse): ncurses matched the report's start and left the
                    // rest as characters; put the start back so the report folds whole.
                    keys += mouseReportStart
                }
            } else if result == KEY_CODE_YES {
                keys.append(NcursesKeyCodes.key(forCode: Int32(bitPattern: value)))
            } else {
                let key = NcursesKeyCodes.key(forCharacter: UInt32(value))
                if case .character(let next) = key, case .character(let previous)? = keys.last {
                    let joined = String(previous) + String(next)
                    if joined.count == 1 {
                        keys[keys.count - 1] = .character(Character(joined))
                        continue
                    }
                }
                keys.append(key)
            }
        }
        let folded = KeySequences.fold(keys)
        // With the mouse off, a report (sent anyway) is read whole and ignored.
        return usesMouse ? folded : folded.map { key in
            if case .mouse(let event) = key { return .mouse(MouseEvent(.other, at: event.point)) }
            return key
        }
    }

    /// terminfo's start of a mouse report (kmous) as keys: Esc, "[", then "<" or "M".
    private lazy var mouseReportStart: [Key] = {
        guard let start = shelf_mouse_report_start() else { return [] }
        return String(cString: start).map { $0 == "\u{1B}" ? Key.escape : .character($0) }
    }()

    /// The mouse event behind a KEY_MOUSE: a button 1 press or a turn of the wheel; any other
    /// report `.other`, so a read that held one is not taken for the end of input.
    private func readMouse() -> MouseEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let point = Point(x: Int(event.x), y: Int(event.y))
        if event.bstate & shelf_button1_pressed() != 0 { return MouseEvent(.press, at: point) }
        if event.bstate & shelf_button4_pressed() != 0 { return MouseEvent(.wheelUp, at: point) }
        if event.bstate & shelf_button5_pressed() != 0 { return MouseEvent(.wheelDown, at: point) }
        return MouseEvent(.other, at: point)
    }

    /// Registers the sequences other terminals send for Shelf's keys (`KeySequences`), so
    /// Home is Home under tmux with TERM=xterm-256color too. A sequence the terminfo entry
    /// already binds to a key Shelf knows keeps its binding; one bound to a code Shelf does not
    /// know (TERM=linux binds `ESC [Z` to an extended code) is taken over.
    private func defineAlternateKeys() {
        for (sequence, key) in KeySequences.alternates {
            guard let code = NcursesKeyCodes.code(for: key) else { continue }
            let existing = key_defined(sequence)
            if existing > 0, case .unknown = NcursesKeyCodes.key(forCode: existing) {
                define_key(sequence, 0)  // remove the binding Shelf cannot use
            } else if existing != 0 {
                continue
            }
            define_key(sequence, code)
        }
    }

    /// An environment variable, nil when unset.
    public nonisolated static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
