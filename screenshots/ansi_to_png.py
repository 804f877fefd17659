#!/usr/bin/env python3
"""Render a terminal capture with ANSI SGR colours (`tmux capture-pane -p -e`) to a PNG.

    python3 screenshots/ansi_to_png.py CAPTURE.ans OUT.png --cols 110 --rows 32 \
        [--font DejaVuSansMono.ttf] [--bold-font DejaVuSansMono-Bold.ttf] [--cursor X,Y]

It understands what tmux emits: SGR sequences (`ESC [ ... m`) with the 8/16 basic colours,
256-colour `38;5;n` / `48;5;n`, true colour `38;2;r;g;b`, default colours 39/49, bold, dim,
italic, underline, reverse, and their resets. Any other escape sequence is skipped. Each cell
is drawn on a fixed monospace grid; wide characters (East Asian wide, emoji) take two cells.
Box-drawing lines and block elements are drawn as shapes so that frames join without gaps.

Needs Pillow (`python3 -m pip install pillow`) and a monospace TrueType font, for example
DejaVu Sans Mono from Debian's fonts-dejavu-core (`apt-get install -y fonts-dejavu-core`).
"""

import argparse
import re
import sys
import unicodedata

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError:  # pragma: no cover - said to the user, not tested
    sys.exit("ansi_to_png.py needs Pillow: install it with `python3 -m pip install pillow`")

# Colours of the picture's terminal: a dark theme, like most terminal screenshots.
DEFAULT_FG = (0xD4, 0xD4, 0xD4)
DEFAULT_BG = (0x1E, 0x1E, 0x1E)
# The 16 basic colours (xterm's defaults, slightly softened for the dark background).
BASIC = [
    (0x00, 0x00, 0x00), (0xCD, 0x31, 0x31), (0x0D, 0xBC, 0x79), (0xE5, 0xE5, 0x10),
    (0x24, 0x72, 0xC8), (0xBC, 0x3F, 0xBC), (0x11, 0xA8, 0xCD), (0xE5, 0xE5, 0xE5),
    (0x66, 0x66, 0x66), (0xF1, 0x4C, 0x4C), (0x23, 0xD1, 0x8B), (0xF5, 0xF5, 0x43),
    (0x3B, 0x8E, 0xEA), (0xD6, 0x70, 0xD6), (0x29, 0xB8, 0xDB), (0xFF, 0xFF, 0xFF),
]


def xterm_256(index):
    """The RGB of an xterm 256-colour palette index."""
    if index < 16:
        return BASIC[index]
    if index < 232:
        index -= 16
        levels = [0x00, 0x5F, 0x87, 0xAF, 0xD7, 0xFF]
        return (levels[index // 36], levels[(index // 6) % 6], levels[index % 6])
    grey = 8 + (index - 232) * 10
    return (grey, grey, grey)


class Style:
    __slots__ = ("fg", "bg", "bold", "dim", "italic", "underline", "reverse")

    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None  # None: the default colour
        self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.reverse = False

    def copy(self):
        other = Style()
        for name in Style.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    def apply(self, parameters):
        """Apply one SGR sequence's parameters (a list of ints; empty means reset)."""
        if not parameters:
            parameters = [0]
        i = 0
        while i < len(parameters):
            p = parameters[i]
            if p == 0:
                self.reset()
            elif p == 1:
                self.bold = True
            elif p == 2:
                self.dim = True
            elif p == 3:
                self.italic = True
            elif p == 4:
                self.underline = True
            elif p == 7:
                self.reverse = True
            elif p == 22:
                self.bold = self.dim = False
            elif p == 23:
                self.italic = False
            elif p == 24:
                self.underline = False
            elif p == 27:
                self.reverse = False
            elif 30 <= p <= 37:
                self.fg = BASIC[p - 30]
            elif 90 <= p <= 97:
                self.fg = BASIC[p - 90 + 8]
            elif 40 <= p <= 47:
                self.bg = BASIC[p - 40]
            elif 100 <= p <= 107:
                self.bg = BASIC[p - 100 + 8]
            elif p == 39:
                self.fg = None
            elif p == 49:
                self.bg = None
            elif p in (38, 48):
                colour = None
                if i + 2 < len(parameters) and parameters[i + 1] == 5:
                    colour = xterm_256(parameters[i + 2] & 0xFF)
                    i += 2
                elif i + 4 < len(parameters) and parameters[i + 1] == 2:
                    colour = tuple(v & 0xFF for v in parameters[i + 2:i + 5])
                    i += 4
                if colour is not None:
                    if p == 38:
                        self.fg = colour
                    else:
                        self.bg = colour
            # Anything else (blink, strike-through, fonts...) is ignored.
            i += 1

    def colours(self):
        """The (foreground, background) RGB the cell is drawn with."""
        fg = self.fg if self.fg is not None else DEFAULT_FG
        bg = self.bg if self.bg is not None else DEFAULT_BG
        if self.bold and self.fg is not None and self.fg in BASIC[:8]:
            fg = BASIC[BASIC.index(self.fg) + 8]  # bold brightens the basic colours, as xterm does
        if self.reverse:
            fg, bg = bg, fg
        if self.dim:
            fg = tuple((f * 3 + b * 2) // 5 for f, b in zip(fg, bg))
        return fg, bg


ESCAPE = re.compile(r"\x1b(?:\[([0-9;:?]*)([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")


def char_width(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2
    if 0x1F300 <= ord(ch) <= 0x1FAFF:
        return 2
    return 1


def parse(text, cols, rows):
    """The capture as a grid of rows of cells: (text, style) or None after a wide character."""
    grid = [[(" ", Style()) for _ in range(cols)] for _ in range(rows)]
    style = Style()
    lines = text.split("\n")
    for y, line in enumerate(lines[:rows]):
        x = 0
        position = 0
        while position < len(line):
            match = ESCAPE.match(line, position)
            if match:
                if match.group(2) == "m":
                    raw = match.group(1) or ""
                    parameters = [int(p) if p.isdigit() else 0 for p in re.split("[;:]", raw)] if raw else []
                    style.apply(parameters)
                position = match.end()
                continue
            ch = line[position]
            position += 1
            if ch in "\r\x1b" or ord(ch) < 0x20:
                continue
            width = char_width(ch)
            if width == 0:
                if x > 0 and grid[y][x - 1] is not None:
                    previous, previous_style = grid[y][x - 1]
                    grid[y][x - 1] = (previous + ch, previous_style)
                continue
            if x + width > cols:
                break
            grid[y][x] = (ch, style.copy())
            if width == 2:
                grid[y][x + 1] = None
            x += width
        # tmux ends each row with the style reset only where it needs to: carry it on.
    return grid


# Box drawing: for each character, the weight of its arm (0 none, 1 light, 2 heavy, 3 double)
# towards up, right, down, left.
BOX = {}


def _box(chars, up, right, down, left):
    for ch in chars:
        BOX[ch] = (up, right, down, left)


_box("─", 0, 1, 0, 1); _box("━", 0, 2, 0, 2); _box("│", 1, 0, 1, 0); _box("┃", 2, 0, 2, 0)
_box("┌╭", 0, 1, 1, 0); _box("┐╮", 0, 0, 1, 1); _box("└╰", 1, 1, 0, 0); _box("┘╯", 1, 0, 0, 1)
_box("├", 1, 1, 1, 0); _box("┤", 1, 0, 1, 1); _box("┬", 0, 1, 1, 1); _box("┴", 1, 1, 0, 1)
_box("┼", 1, 1, 1, 1); _box("┏", 0, 2, 2, 0); _box("┓", 0, 0, 2, 2); _box("┗", 2, 2, 0, 0)
_box("┛", 2, 0, 0, 2); _box("╴", 0, 0, 0, 1); _box("╶", 0, 1, 0, 0); _box("╵", 1, 0, 0, 0)
_box("╷", 0, 0, 1, 0); _box("═", 0, 3, 0, 3); _box("║", 3, 0, 3, 0); _box("╔", 0, 3, 3, 0)
_box("╗", 0, 0, 3, 3); _box("╚", 3, 3, 0, 0); _box("╝", 3, 0, 0, 3)


def draw_box(draw, ch, left, top, width, height, colour):
    up, right, down, left_arm = BOX[ch]
    cx = left + width // 2
    cy = top + height // 2
    thin = max(1, round(width / 9))

    def bar(x0, y0, x1, y1, weight):
        if weight == 0:
            return
        w = thin * 2 if weight == 2 else thin
        if weight == 3:  # double: two thin bars
            gap = thin * 2
            if x0 == x1:
                for dx in (-gap, gap):
                    draw.rectangle([x0 + dx - thin // 2, y0, x0 + dx - thin // 2 + thin - 1, y1], fill=colour)
            else:
                for dy in (-gap, gap):
                    draw.rectangle([x0, y0 + dy - thin // 2, x1, y0 + dy - thin // 2 + thin - 1], fill=colour)
            return
        if x0 == x1:
            draw.rectangle([x0 - w // 2, y0, x0 - w // 2 + w - 1, y1], fill=colour)
        else:
            draw.rectangle([x0, y0 - w // 2, x1, y0 - w // 2 + w - 1], fill=colour)

    # Each arm runs from the cell's edge to its centre, overlapping the centre by half a line.
    reach = thin
    bar(cx, top, cx, cy + reach // 2, up)
    bar(cx, cy - reach // 2, cx, top + height - 1, down)
    bar(left, cy, cx + reach // 2, cy, left_arm)
    bar(cx - reach // 2, cy, left + width - 1, cy, right)


BLOCKS = {
    "█": (0, 0, 8, 8), "▀": (0, 0, 8, 4), "▄": (0, 4, 8, 8), "▌": (0, 0, 4, 8), "▐": (4, 0, 8, 8),
    "▁": (0, 7, 8, 8), "▂": (0, 6, 8, 8), "▃": (0, 5, 8, 8), "▅": (0, 3, 8, 8), "▆": (0, 2, 8, 8),
    "▇": (0, 1, 8, 8), "▏": (0, 0, 1, 8), "▎": (0, 0, 2, 8), "▍": (0, 0, 3, 8), "▋": (0, 0, 5, 8),
    "▊": (0, 0, 6, 8), "▉": (0, 0, 7, 8), "▔": (0, 0, 8, 1), "▕": (7, 0, 8, 8),
}
SHADES = {"░": 0.25, "▒": 0.5, "▓": 0.75}


def render(grid, font_path, bold_path, size, cursor, padding):
    font = ImageFont.truetype(font_path, size)
    bold = ImageFont.truetype(bold_path, size) if bold_path else font
    ascent, descent = font.getmetrics()
    cell_w = round(font.getlength("M"))
    cell_h = ascent + descent + 2
    rows, cols = len(grid), len(grid[0])
    image = Image.new("RGB", (cols * cell_w + 2 * padding, rows * cell_h + 2 * padding), DEFAULT_BG)
    draw = ImageDraw.Draw(image)

    for y, row in enumerate(grid):
        for x, cell in enumerate(row):
            if cell is None:
                continue
            text, style = cell
            fg, bg = style.colours()
            wide = x + 1 < cols and row[x + 1] is None
            left = padding + x * cell_w
            top = padding + y * cell_h
            width = cell_w * (2 if wide else 1)
            if cursor == (x, y):
                fg, bg = bg, fg
            if bg != DEFAULT_BG:
                draw.rectangle([left, top, left + width - 1, top + cell_h - 1], fill=bg)
            if text in BOX:
                draw_box(draw, text, left, top, cell_w, cell_h, fg)
            elif text in BLOCKS:
                x0, y0, x1, y1 = BLOCKS[text]
                draw.rectangle([left + x0 * cell_w // 8, top + y0 * cell_h // 8,
                                left + x1 * cell_w // 8 - 1, top + y1 * cell_h // 8 - 1], fill=fg)
            elif text in SHADES:
                amount = SHADES[text]
                shade = tuple(round(f * amount + b * (1 - amount)) for f, b in zip(fg, bg))
                draw.rectangle([left, top, left + cell_w - 1, top + cell_h - 1], fill=shade)
            elif text != " ":
                face = bold if style.bold else font
                draw.text((left, top + 1), text, font=face, fill=fg)
            if style.underline:
                draw.line([left, top + ascent + 2, left + width - 1, top + ascent + 2], fill=fg)
    return image


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("capture", help="a file written by `tmux capture-pane -p -e`")
    parser.add_argument("output", help="the PNG to write")
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--font", default="/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
    parser.add_argument("--bold-font", default="/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf")
    parser.add_argument("--size", type=int, default=16, help="font size in pixels")
    parser.add_argument("--padding", type=int, default=14)
    parser.add_argument("--cursor", help="X,Y: draw the cursor (a reversed cell) there")
    arguments = parser.parse_args()

    with open(arguments.capture, encoding="utf-8", errors="replace") as file:
        text = file.read()
    grid = parse(text, arguments.cols, arguments.rows)
    cursor = tuple(int(v) for v in arguments.cursor.split(",")) if arguments.cursor else None
    image = render(grid, arguments.font, arguments.bold_font, arguments.size, cursor, arguments.padding)
    image.save(arguments.output, optimize=True)


if __name__ == "__main__":
    main()
