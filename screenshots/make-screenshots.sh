#!/usr/bin/env bash
# Remakes the pictures of shelf in screenshots/: builds shelf, runs it in tmux (100x30,
# xterm-256color, UTF-8) on a temporary copy of the demo data, drives it by keys to four states,
# captures each screen with its colours (`tmux capture-pane -p -e`) and renders it to a PNG with
# screenshots/ansi_to_png.py:
#
#   books.png   the books list, its columns under a header sorted by title (▲), with the
#               detail of a book that has tags
#   colors.png  the colors list with its swatches, sorted by hex (s), and a colour's detail
#   form.png    an edit form showing the validation message for a bad hex colour
#   help.png    the help overlay
#
# Run it from anywhere: bash screenshots/make-screenshots.sh
# Needs: swift, tmux, python3 with Pillow, and a monospace TrueType font (DejaVu Sans Mono).
# It installs nothing: it says what is missing and how to install it.
# SHELF_SCRATCH_PATH=DIR builds in DIR (swift build --scratch-path) instead of .build;
# SHELF_SCREENSHOT_FONT=FILE.ttf renders with another monospace font.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/screenshots"
cols=100
rows=30

# --- What is needed -------------------------------------------------------------------------
missing=()
command -v swift >/dev/null 2>&1 || missing+=("swift: install a Swift 6 toolchain (https://www.swift.org/install)")
command -v tmux >/dev/null 2>&1 || missing+=("tmux: apt-get install -y tmux (macOS: brew install tmux)")
if ! command -v python3 >/dev/null 2>&1; then
    missing+=("python3: apt-get install -y python3")
elif ! python3 -c 'import PIL' >/dev/null 2>&1; then
    missing+=("Pillow for python3: python3 -m pip install pillow (Debian: apt-get install -y python3-pil)")
fi
font="${SHELF_SCREENSHOT_FONT:-}"
if [[ -z "$font" ]]; then
    for candidate in /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf \
        /usr/share/fonts/TTF/DejaVuSansMono.ttf /Library/Fonts/DejaVuSansMono.ttf \
        "$HOME/Library/Fonts/DejaVuSansMono.ttf"; do
        if [[ -f "$candidate" ]]; then font="$candidate"; break; fi
    done
fi
if [[ -z "$font" ]] && command -v fc-match >/dev/null 2>&1; then
    found="$(fc-match -f '%{file}' 'DejaVu Sans Mono' 2>/dev/null || true)"
    [[ "$found" == *DejaVuSansMono* && -f "$found" ]] && font="$found"
fi
if [[ -n "$font" && ! -f "$font" ]]; then
    missing+=("the font SHELF_SCREENSHOT_FONT names, $font: no such file")
    font="-"
fi
[[ -n "$font" ]] || missing+=("the DejaVu Sans Mono font: apt-get install -y fonts-dejavu-core (or set SHELF_SCREENSHOT_FONT to a monospace .ttf)")
if ((${#missing[@]})); then
    echo "make-screenshots.sh: missing, nothing was changed:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 1
fi
bold_font="${font%.ttf}-Bold.ttf"
[[ -f "$bold_font" ]] || bold_font="$font"

# --- Build ----------------------------------------------------------------------------------
scratch=()
[[ -n "${SHELF_SCRATCH_PATH:-}" ]] && scratch=(--scratch-path "$SHELF_SCRATCH_PATH")
echo "Building shelf..."
(cd "$root" && swift build "${scratch[@]}" --product shelf)
shelf="$(cd "$root" && swift build "${scratch[@]}" --show-bin-path)/shelf"
[[ -x "$shelf" ]] || { echo "make-screenshots.sh: no shelf binary at $shelf after building" >&2; exit 1; }

# --- A tmux of our own on a copy of the demo data -------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/shelf-screenshots.XXXXXX")"
socket="shelf-screenshots-$$"
tmux_() { tmux -L "$socket" -f /dev/null "$@"; }
cleanup() {
    local socket_path
    socket_path="$(tmux_ display-message -p '#{socket_path}' 2>/dev/null || true)"
    tmux_ kill-server >/dev/null 2>&1 || true
    # tmux leaves a killed server's socket file behind.
    [[ "$socket_path" == */"$socket" ]] && rm -f "$socket_path"
    rm -rf "$work"
}
trap cleanup EXIT
cp -R "$root/Data" "$work/data"

# TMUX unset: this may itself run inside tmux. TERM is set by env in the pane's command: tmux
# 3.3 ignores `new-session -e TERM=...` and would give the pane tmux-256color.
env -u TMUX tmux -L "$socket" -f /dev/null new-session -d -s shots -x "$cols" -y "$rows" \
    "env TERM=xterm-256color LANG=C.UTF-8 SWIFT_BACKTRACE=interactive=no $(printf '%q' "$shelf") --data $(printf '%q' "$work/data") --poll-interval 100; sleep 100000"
tmux_ set-option -g window-size manual >/dev/null

screen() { tmux_ capture-pane -p -t shots; }
keys() { tmux_ send-keys -t shots "$@"; }
typed() { tmux_ send-keys -t shots -l "$1"; }
# wait_for TEXT: until the screen shows TEXT (10 s at most).
wait_for() {
    local tries=0
    until screen | grep -qF -- "$1"; do
        tries=$((tries + 1))
        if ((tries > 200)); then
            echo "make-screenshots.sh: the screen never showed '$1'; it shows:" >&2
            screen >&2
            exit 1
        fi
        sleep 0.05
    done
}
# settle: the screen has stopped changing (a few polls alike), so the capture is whole.
settle() {
    local previous="" current same=0
    while ((same < 4)); do
        sleep 0.1
        current="$(tmux_ capture-pane -p -e -t shots)"
        if [[ "$current" == "$previous" ]]; then same=$((same + 1)); else same=0; fi
        previous="$current"
    done
}
# shoot NAME: captures the screen with its colours and renders screenshots/NAME.png.
shoot() {
    settle
    tmux_ capture-pane -p -e -t shots >"$work/$1.ans"
    local cursor=()
    if [[ "$(tmux_ display-message -p -t shots '#{cursor_flag}')" == 1 ]]; then
        cursor=(--cursor "$(tmux_ display-message -p -t shots '#{cursor_x},#{cursor_y}')")
    fi
    python3 "$out/ansi_to_png.py" "$work/$1.ans" "$out/$1.png" --cols "$cols" --rows "$rows" \
        --font "$font" --bold-font "$bold_font" "${cursor[@]}"
    echo "wrote screenshots/$1.png"
}

wait_for "documents"

# 1. Books, with the detail of a book that has tags: j down the list to books/hitchhiker-tags.
for _ in $(seq 1 60); do
    screen | grep -qF "┌ books/hitchhiker-tags " && break
    before="$(screen)"
    keys j
    for _ in $(seq 1 100); do [[ "$(screen)" != "$before" ]] && break; sleep 0.02; done
done
wait_for "┌ books/hitchhiker-tags "
shoot books

# 2. Colors with swatches, sorted by their hex (s: the next column), a few rows down.
keys 2
wait_for "┌ Colors "
wait_for "Alice Blue"
keys s
wait_for "Hex ▲"
keys g
wait_for " 1/61 "
for _ in 1 2 3 4; do keys j; sleep 0.1; done
shoot colors

# 3. An edit form with the validation message of a bad hex colour.
keys e
wait_for "Edit colors/"
keys Tab
for _ in $(seq 1 12); do keys BSpace; done
typed "#ff80g0"
wait_for "#ff80g0"
wait_for "! "
shoot form
keys Escape
wait_for "Discard what you typed?"
keys y
wait_for "q quit"

# 4. The help overlay, over the books.
keys 1
wait_for "┌ Books "
keys '?'
wait_for "Esc or ? to close"
shoot help

keys Escape
echo "Done: screenshots/books.png colors.png form.png help.png"
