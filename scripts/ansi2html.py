#!/usr/bin/env python3
"""Turn a terminal capture (`tmux capture-pane -e -p`) into an HTML page that draws it as the
terminal did: one fixed-size cell per column, on an exact COLS x ROWS grid, in a monospace
font on a dark background, every character HTML-escaped.

    python3 scripts/ansi2html.py COLS ROWS < capture.txt > capture.html

Understood: SGR resets, bold, dim, italic, underline, reverse, hidden and strike-through (and
their "off" codes), the 8 + 8 named colours (30-37, 90-97, 40-47, 100-107), the 256-colour
palette (38;5;N / 48;5;N) and 24-bit colour (38;2;R;G;B / 48;2;R;G;B, also with colons),
default colours (39 / 49). Other escape sequences are dropped. Wide characters (CJK, most
emoji) take two cells, as in the terminal.
"""

import html
import re
import sys
import unicodedata

# Default colours of the page: the terminal's own foreground and background.
DEFAULT_FG = "#d0d0d0"
DEFAULT_BG = "#1c1c1c"
# The 16 named colours (xterm's defaults, slightly softened).
NAMED = [
    "#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
    "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
]
CELL_W = 10  # px; DejaVu Sans Mono's advance at FONT_PX
CELL_H = 20
FONT_PX = 16.6


def palette(n):
    """The xterm 256-colour palette."""
    if n < 16:
        return NAMED[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        r, g, b = steps[n // 36], steps[(n // 6) % 6], steps[n % 6]
        return f"#{r:02x}{g:02x}{b:02x}"
    v = 8 + 10 * (n - 232)
    return f"#{v:02x}{v:02x}{v:02x}"


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.italic = self.underline = False
        self.reverse = self.hidden = self.strike = False

    def key(self):
        return (self.fg, self.bg, self.bold, self.dim, self.italic, self.underline,
                self.reverse, self.hidden, self.strike)

    def apply(self, params):
        """Apply one SGR parameter list."""
        # Colons (38:2::R:G:B) are read like semicolons; an empty colour space id is dropped.
        codes = []
        for part in params.split(";") if params else ["0"]:
            sub = part.split(":")
            if len(sub) > 1 and sub[0] in ("38", "48") and sub[1] == "2" and len(sub) == 6:
                sub = sub[:2] + sub[3:]
            codes.extend(int(x) if x.isdigit() else 0 for x in sub)
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                self.reset()
            elif c == 1:
                self.bold = True
            elif c == 2:
                self.dim = True
            elif c == 3:
                self.italic = True
            elif c in (4, 21):
                self.underline = True
            elif c == 7:
                self.reverse = True
            elif c == 8:
                self.hidden = True
            elif c == 9:
                self.strike = True
            elif c == 22:
                self.bold = self.dim = False
            elif c == 23:
                self.italic = False
            elif c == 24:
                self.underline = False
            elif c == 27:
                self.reverse = False
            elif c == 28:
                self.hidden = False
            elif c == 29:
                self.strike = False
            elif 30 <= c <= 37:
                self.fg = NAMED[c - 30]
            elif 90 <= c <= 97:
                self.fg = NAMED[c - 90 + 8]
            elif 40 <= c <= 47:
                self.bg = NAMED[c - 40]
            elif 100 <= c <= 107:
                self.bg = NAMED[c - 100 + 8]
            elif c == 39:
                self.fg = None
            elif c == 49:
                self.bg = None
            elif c in (38, 48) and i + 1 < len(codes):
                colour = None
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    colour = palette(codes[i + 2] % 256)
                    i += 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    r, g, b = (min(v, 255) for v in codes[i + 2:i + 5])
                    colour = f"#{r:02x}{g:02x}{b:02x}"
                    i += 4
                if c == 38:
                    self.fg = colour
                else:
                    self.bg = colour
            i += 1

    def css(self):
        fg, bg = self.fg or DEFAULT_FG, self.bg or DEFAULT_BG
        if self.reverse:
            fg, bg = bg, fg
        out = []
        if fg != DEFAULT_FG:
            out.append(f"color:{fg}")
        if bg != DEFAULT_BG:
            out.append(f"background:{bg}")
        if self.bold:
            out.append("font-weight:bold")
        if self.dim:
            out.append("opacity:.6")
        if self.italic:
            out.append("font-style:italic")
        lines = [name for on, name in ((self.underline, "underline"), (self.strike, "line-through")) if on]
        if lines:
            out.append("text-decoration:" + " ".join(lines))
        if self.hidden:
            out.append("color:transparent")
        return ";".join(out)


TOKEN = re.compile(r"\x1b\[([0-9;:?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|([^\x1b])", re.S)


def width(ch):
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def parse(text, cols, rows):
    """The screen as rows of cells (character, style key, css)."""
    style = Style()
    screen = []
    for raw in text.split("\n")[:rows]:
        line = []
        for m in TOKEN.finditer(raw.rstrip("\r")):
            if m.group(3) is not None:
                ch = m.group(3)
                w = width(ch)
                if w == 0:
                    if line:
                        c, k, css = line[-1]
                        line[-1] = (c + ch, k, css)
                    continue
                if ch == "\t":
                    for _ in range(8 - len(line) % 8):
                        line.append((" ", style.key(), style.css()))
                    continue
                line.append((ch, style.key(), style.css()))
                if w == 2:
                    line.append(("", style.key(), style.css()))
            elif m.group(2) == "m":
                style.apply(m.group(1))
        line = line[:cols]
        # The rest of the row keeps the background of the style in force (as a terminal's
        # erase does).
        while len(line) < cols:
            line.append((" ", style.key(), style.css() if style.bg or style.reverse else ""))
        screen.append(line)
    while len(screen) < rows:
        screen.append([(" ", None, "")] * cols)
    return screen


def render(screen, cols, rows):
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">',
        "<style>",
        f"html,body{{margin:0;background:{DEFAULT_BG};}}",
        f".term{{display:inline-block;padding:12px 14px;background:{DEFAULT_BG};color:{DEFAULT_FG};"
        f"font-family:'DejaVu Sans Mono','Liberation Mono',monospace;font-size:{FONT_PX}px;"
        f"line-height:{CELL_H}px;font-variant-ligatures:none;}}",
        f".r{{display:block;height:{CELL_H}px;width:{cols * CELL_W}px;white-space:pre;overflow:hidden;}}",
        f".r>span{{display:inline-block;width:{CELL_W}px;height:{CELL_H}px;vertical-align:top;"
        "text-align:center;overflow:visible;}",
        f".r>span.w{{width:{2 * CELL_W}px;}}",
        "</style></head><body>",
        '<div class="term">',
    ]
    for line in screen:
        cells = []
        i = 0
        while i < len(line):
            ch, _, css = line[i]
            wide = i + 1 < len(line) and line[i + 1][0] == "" and ch != ""
            cls = ' class="w"' if wide else ""
            attr = f' style="{css}"' if css else ""
            cells.append(f"<span{cls}{attr}>{html.escape(ch) if ch.strip() else ' '}</span>")
            i += 2 if wide else 1
        out.append('<div class="r">' + "".join(cells) + "</div>")
    out.append("</div></body></html>")
    return "\n".join(out) + "\n"


def main():
    cols, rows = int(sys.argv[1]), int(sys.argv[2])
    text = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    sys.stdout.write(render(parse(text, cols, rows), cols, rows))


if __name__ == "__main__":
    main()
