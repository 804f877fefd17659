// TerminalKit: a terminal toolkit that knows no application. A frame is a `Canvas` of cells
// that `Widget`s draw into (frames, lists, tables, forms, text fields, dialogs, bars, swatches);
// `Key`, `MouseEvent` and `KeyBinding` tables are what comes back from the terminal and what
// each key means; `ColorMode` and `XtermPalette` turn its own `RGBColor` into what a terminal
// of 256, 16, 8 or no colours shows. It draws nothing itself: a backend (Shelf's ncurses
// screen) copies the canvas to the terminal, and tests read it back as text.

/// A grid of cells: what one frame of the screen shows. Widgets draw into it; the ncurses
/// backend copies it to the terminal; tests read it back with `lines` and `style(at:)`.
///
/// Writing keeps the grid consistent: a wide character always has its continuation cell,
/// is never split at a clip edge (a space is drawn instead), and overwriting either half of
/// a wide character blanks the other half.
public struct Canvas: Hashable, Sendable {
    public let size: Size
    /// Row-major, `size.width * size.height` cells.
    public private(set) var cells: [Cell]

    /// A canvas of blanks in `style`.
    public init(size: Size, style: Style = .plain) {
        let w = max(0, size.width), h = max(0, size.height)
        self.size = Size(width: w, height: h)
        self.cells = Array(repeating: .blank(style), count: w * h)
    }

    public init(width: Int, height: Int, style: Style = .plain) {
        self.init(size: Size(width: width, height: height), style: style)
    }

    public var width: Int { size.width }
    public var height: Int { size.height }
    public var bounds: Rect { Rect(size: size) }

    // MARK: Reading

    /// The cell at column `x`, row `y`; a blank for a position outside the canvas.
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, x < width, y >= 0, y < height else { return .blank() }
        return cells[y * width + x]
    }

    public func cell(at point: Point) -> Cell { self[point.x, point.y] }

    /// The style of the cell at `point` (a continuation cell has its wide character's style).
    public func style(at point: Point) -> Style { cell(at: point).style }

    /// Row `y` as text, every column included (continuation cells add nothing, so a wide
    /// character counts once and still takes two columns).
    public func line(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var text = ""
        for x in 0..<width {
            let cell = cells[y * width + x]
            if !cell.isContinuation { text += cell.text }
        }
        return text
    }

    /// Every row as text, full width: what the screen would show without colours.
    public var lines: [String] { (0..<height).map(line) }

    // MARK: Writing

    /// Writes `text` from `point` rightwards in `style`, stopping at the canvas edge or after
    /// `width` columns. A wide character that does not fit entirely is replaced by a space.
    /// Controls are drawn escaped (`\x1b`, see `ControlCharacter`); zero-width characters on
    /// their own are skipped.
    /// Returns the number of columns written.
    @discardableResult
    public mutating func write(_ text: String, at point: Point, style: Style = .plain,
                               clippedTo width: Int? = nil) -> Int {
        guard point.y >= 0, point.y < height else { return 0 }
        let limit = width.map { min(self.width, point.x + max(0, $0)) } ?? self.width
        var x = point.x
        for character in text {
            guard x < limit else { break }
            if let escape = ControlCharacter.escaped(character) {
                for glyph in escape where x < limit {
                    if x >= 0 { put(Cell(text: String(glyph), width: 1, style: style), x: x, y: point.y) }
                    x += 1
                }
                continue
            }
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if x < 0 {
                // Left of the canvas: skip, but a wide character straddling column 0 leaves a space.
                if x + w > 0, limit > 0 { put(.blank(style), x: 0, y: point.y) }
                x += w
                continue
            }
            if x + w > limit {
                put(.blank(style), x: x, y: point.y)
                x += 1
                break
            }
            put(Cell(text: String(character), width: w, style: style), x: x, y: point.y)
            x += w
        }
        return max(0, x - max(point.x, 0))
    }

    /// Writes each span in its own style, one after the other; same clipping as `write(_:at:)`.
    @discardableResult
    public mutating func write(_ spans: [Span], at point: Point, clippedTo width: Int? = nil) -> Int {
        var used = 0
        for span in spans {
            let remaining = width.map { $0 - used }
            if let remaining, remaining <= 0 { break }
            used += write(span.text, at: Point(x: point.x + used, y: point.y),
                          style: span.style, clippedTo: remaining)
        }
        return used
    }

    /// Fills `rect` (clipped to the canvas) with `character` in `style`.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let w = DisplayWidth.of(character)
        for y in area.y..<area.maxY {
            if w == 1 {
                for x in area.x..<area.maxX {
                    put(Cell(text: String(character), width: 1, style: style), x: x, y: y)
                }
            } else {
                let line = String(repeating: String(character), count: area.width)
                fill(Rect(x: area.x, y: y, width: area.width, height: 1), with: " ", style: style)
                write(line, at: Point(x: area.x, y: y), style: style, clippedTo: area.width)
            }
        }
    }

    /// Changes the style of every cell in `rect` (clipped to the canvas), keeping the text;
    /// used to highlight a selected row whatever its spans' styles.
    public mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                change(&cells[y * width + x].style)
            }
            // Keep a wide character whose halves were split by the rect edge in one style.
            if area.x > 0, cells[y * width + area.x].isContinuation {
                cells[y * width + area.x - 1].style = cells[y * width + area.x].style
            }
            if area.maxX < width, cells[y * width + area.maxX].isContinuation {
                cells[y * width + area.maxX].style = cells[y * width + area.maxX - 1].style
            }
        }
    }

    /// Draws `other` with its top left corner at `origin`, clipped to this canvas.
    public mutating func draw(_ other: Canvas, at origin: Point) {
        for y in 0..<other.height {
            for x in 0..<other.width {
                let cell = other[x, y]
                if cell.isContinuation { continue }
                let target = Point(x: origin.x + x, y: origin.y + y)
                guard bounds.contains(target) else { continue }
                if cell.width == 2, target.x + 1 >= width {
                    put(.blank(cell.style), x: target.x, y: target.y)
                } else {
                    put(cell, x: target.x, y: target.y)
                }
            }
        }
    }

    /// Places one cell (width 1 or 2) at an in-bounds position, blanking any wide character
    /// it partly covers. A width-2 cell must have room for its continuation.
    private mutating func put(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let row = y * width
        let span = cell.width == 2 && x + 1 < width ? 2 : 1
        // Break up wide characters overlapping the columns about to be covered.
        for column in x..<(x + span) {
            let old = cells[row + column]
            if old.isContinuation, column > 0, column == x {
                cells[row + column - 1] = .blank(cells[row + column - 1].style)
            }
            if old.width == 2, column + 1 < width, column == x + span - 1 {
                cells[row + column + 1] = .blank(old.style)
            }
        }
        if span == 2 {
            cells[row + x] = cell
            cells[row + x + 1] = .continuation(cell.style)
        } else if cell.width == 2 {
            cells[row + x] = .blank(cell.style)
        } else {
            cells[row + x] = cell
        }
    }
}
