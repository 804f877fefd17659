#!/usr/bin/env python3
"""Shelf against its peers, side by side on this machine: the table of issue 10.

    python3 scripts/compare.py [--count 100000] [--repeats 3] [--skip-peers] [--skip-bench]

One run: builds Shelf in release (`swift build -c release`), makes a virtual environment in
.build-compare/venv and installs the peers there with pip (visidata and TinyDB, and pyte, the
terminal emulator that reads both apps' screens), writes COUNT books with `shelf generate`
(timed: Shelf's durable writes in batches of 500), converts exactly those books to JSON lines
for visidata and to one TinyDB file, then measures:

  rows visible after start   spawn in a 100x30 pseudo-terminal until a book row is on screen
  fully loaded               until every book is in: Shelf's `loaded books` timing line
                             (SHELF_TIMINGS, as scripts/ui-bench.py), visidata's status line
                             showing COUNT rows and no longer reading
  peak memory of the app     VmHWM of the app's process once fully loaded
  getDocuments() of all      shelf-bench's figure (median of its 3 runs, its own books of the
                             same count) against TinyDB open + all() in a fresh interpreter
  peak memory, shelf-bench   shelf-bench's VmHWM for that size
  writing all, durably       `shelf generate` into a fresh folder (wall time of the command)
                             against TinyDB insert_multiple into a fresh file + close (no fsync)
  CPU per external change    shelf-bench's figure; visidata does not watch files
  in-place edit → delivered  shelf-bench's figure; visidata: a line of its file rewritten in
                             place while it shows it, then watched for --watch seconds
  idle polling               shelf-bench's (one listener, steady state, net of the baseline);
                             and each app's own CPU over --idle seconds right after loading

Timings run --repeats times and print the median (and the range): the machine is shared and
noisy. A figure that cannot be had cleanly prints as n/a with the reason. Everything it makes
stays under .build-compare/ (git-ignored); data is regenerated every run.
"""
import argparse, fcntl, json, os, pty, re, select, shutil, signal, statistics, struct, subprocess, sys, termios, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".build-compare")
VENV = os.path.join(WORK, "venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")
PEERS = ["visidata==3.4", "tinydb==4.9.0"]
HELPERS = ["pyte==0.8.2"]
COLUMNS, LINES = 100, 30
# A row of `shelf generate`'s books as both apps show it: its title, "The Hollow Comet 12".
TITLE = re.compile(r"\bThe [A-Z][a-z]+ [A-Z][a-z]+ \d+\b")


def log(message):
    print(message, file=sys.stderr, flush=True)


# MARK: Setup (system Python), then the rest in the virtual environment

def ensure_venv(skip_peers):
    packages = HELPERS + ([] if skip_peers else PEERS)
    modules = ["pyte"] + ([] if skip_peers else ["visidata", "tinydb"])
    if not os.path.exists(VENV_PYTHON):
        log(f"creating the virtual environment {os.path.relpath(VENV, ROOT)}")
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    check = subprocess.run([VENV_PYTHON, "-c", "import " + ", ".join(modules)], capture_output=True)
    versions = subprocess.run([VENV_PYTHON, "-m", "pip", "freeze"], capture_output=True, text=True).stdout.lower().split()
    if check.returncode != 0 or any(p.lower() not in versions for p in packages):
        log("pip install " + " ".join(packages))
        subprocess.run([VENV_PYTHON, "-m", "pip", "install", "-q", "--disable-pip-version-check"] + packages, check=True)


def in_venv():
    return os.path.realpath(sys.prefix) == os.path.realpath(VENV)


def run_in_venv(script, skip_peers):
    """Runs `script` again in the virtual environment (made if missing), unless already there."""
    if not in_venv():
        os.makedirs(WORK, exist_ok=True)
        ensure_venv(skip_peers)
        os.execv(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(script)] + sys.argv[1:])


def require_release_binary(path, who):
    """Stops with how to build it when the release `shelf` is missing."""
    if not os.access(path, os.X_OK):
        raise SystemExit(f"{who}: {path} not found: build it with `swift build -c release --product shelf`")


# MARK: Figures

class Figure:
    """Some measurements of one thing (seconds, bytes, fractions, or a text), or why there are none."""

    def __init__(self, values=None, unit="s", text=None, na=None, note=None):
        self.values, self.unit, self.text, self.na, self.note = list(values or []), unit, text, na, note

    @property
    def median(self):
        return statistics.median(self.values) if self.values else None

    def show(self):
        if self.na:
            return "n/a"
        if self.text:
            return self.text
        value = fmt(self.median, self.unit)
        if len(self.values) > 1:
            value += f" ({fmt(min(self.values), self.unit, False)}–{fmt(max(self.values), self.unit, False)}, n={len(self.values)})"
        return value


def na(reason):
    return Figure(na=reason)


def fmt(value, unit, with_unit=True):
    if value is None:
        return "n/a"
    if unit == "s":
        if value >= 100:
            text, u = f"{value:.0f}", "s"
        elif value >= 1:
            text, u = f"{value:.2f}", "s"
        elif value >= 0.001:
            text, u = f"{value * 1000:.3g}", "ms"
        else:
            text, u = f"{value * 1e6:.3g}", "µs"
    elif unit == "B":
        text, u = f"{value / 1048576:.0f}", "MiB"
    elif unit == "%":
        text, u = f"{value * 100:.2f}", "% of a core"
    else:
        text, u = f"{value:g}", unit
    if unit == "s" and not with_unit:
        return text + " " + u  # the range may cross a unit
    return text + (" " + u if with_unit else "")


def ratio(shelf, peer):
    if shelf.na or peer.na or shelf.text or peer.text or not shelf.values or not peer.values or not peer.median:
        return ""
    return f"{shelf.median / peer.median:.2f}×"


# MARK: Running things

def run(command, **kwargs):
    return subprocess.run(command, check=True, text=True, capture_output=True, **kwargs)


def timed(command, **kwargs):
    start = time.monotonic()
    result = run(command, **kwargs)
    return time.monotonic() - start, result


def build():
    log("swift build -c release (shelf, shelf-bench)")
    started = time.monotonic()
    result = subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit("compare: the release build failed")
    log(f"  built in {time.monotonic() - started:.0f} s")
    return os.path.join(ROOT, ".build", "release")


def generate(shelf, folder, count):
    """`shelf generate` into a fresh folder: the wall time of the command."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    elapsed, _ = timed([shelf, "generate", "--data", folder, "--count", str(count)])
    files = [n for n in os.listdir(os.path.join(folder, "books")) if n.endswith(".json")]
    if len(files) != count:
        raise SystemExit(f"compare: shelf generate wrote {len(files)} books, expected {count}")
    return elapsed


def convert(folder, jsonl, tinydb=None):
    """Shelf's book files, in id order, as JSON lines (id first) and as one TinyDB file (unless None)."""
    books = os.path.join(folder, "books")
    names = sorted(n for n in os.listdir(books) if n.endswith(".json") and not n.startswith("."))
    table = {}
    with open(jsonl, "w", encoding="utf-8") as out:
        for number, name in enumerate(names, 1):
            with open(os.path.join(books, name), encoding="utf-8") as f:
                fields = json.load(f)
            if any(isinstance(v, dict) and len(v) == 1 and next(iter(v)).startswith("$") for v in fields.values()):
                raise SystemExit(f"compare: {name} holds a tagged value; the converter only knows plain JSON fields")
            document = {"id": name[:-5], **fields}
            out.write(json.dumps(document, ensure_ascii=False) + "\n")
            if tinydb:
                table[str(number)] = document
    if tinydb:
        with open(tinydb, "w", encoding="utf-8") as out:
            json.dump({"_default": table}, out, ensure_ascii=False)
    return len(names)


TINYDB_READ = """
import sys, time
start = time.perf_counter()
from tinydb import TinyDB
db = TinyDB(sys.argv[1], access_mode="r")
rows = db.all()
elapsed = time.perf_counter() - start
db.close()
print(len(rows), elapsed)
"""

TINYDB_INSERT = """
import json, os, sys, time
from tinydb import TinyDB
with open(sys.argv[1], encoding="utf-8") as f:
    documents = [json.loads(line) for line in f]
if os.path.exists(sys.argv[2]):
    os.remove(sys.argv[2])
start = time.perf_counter()
db = TinyDB(sys.argv[2])
db.insert_multiple(documents)
db.close()
elapsed = time.perf_counter() - start
print(len(documents), elapsed)
"""


def tinydb_figure(script, arguments, count, repeats):
    values = []
    for _ in range(repeats):
        out = run([VENV_PYTHON, "-c", script] + arguments).stdout.split()
        if int(out[0]) != count:
            return na(f"TinyDB saw {out[0]} documents, expected {count}")
        values.append(float(out[1]))
    return Figure(values)


# MARK: Apps in a pseudo-terminal (the approach of scripts/ui-bench.py, with a terminal emulator)

class Session:
    def __init__(self, argv, env, timings=None):
        import pyte
        self.screen = pyte.Screen(COLUMNS, LINES)
        self.stream = pyte.ByteStream(self.screen)
        self.timings = timings
        if timings and os.path.exists(timings):
            os.remove(timings)
        environment = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", **env)
        self.started = time.monotonic()
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.execve(argv[0], argv, environment)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        self.closed = False

    def drain(self, seconds):
        end = time.monotonic() + seconds
        while not self.closed:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    self.closed = True
                    return
                self.stream.feed(data)

    def lines(self):
        return self.screen.display

    def wait(self, predicate, timeout, what):
        """Seconds from spawn until predicate(screen lines) holds, checked after every read."""
        end = time.monotonic() + timeout
        while True:
            if predicate(self.lines()):
                return time.monotonic() - self.started
            if self.closed:
                raise RuntimeError(f"the app exited before {what}; its screen:\n" + "\n".join(self.lines()))
            if time.monotonic() > end:
                raise RuntimeError(f"no {what} after {timeout} s; the screen:\n" + "\n".join(self.lines()))
            self.drain(0.002)

    def wait_loaded_log(self, collection, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if os.path.exists(self.timings):
                with open(self.timings) as f:
                    for line in f:
                        fields = line.split()
                        if len(fields) == 3 and fields[0] == "loaded" and fields[1] == collection:
                            return float(fields[2]) - self.started
            if self.closed:
                raise RuntimeError("the app exited before loading; its screen:\n" + "\n".join(self.lines()))
            self.drain(0.01)
        raise RuntimeError(f"no 'loaded {collection}' in the timing log after {timeout} s")

    def status(self, key):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024

    def cpu_seconds(self):
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime, all threads

    def idle_share(self, seconds):
        """Share of a core the app uses while nothing happens (its output drained all along)."""
        self.drain(0.5)
        cpu, start = self.cpu_seconds(), time.monotonic()
        self.drain(seconds)
        return (self.cpu_seconds() - cpu) / (time.monotonic() - start)

    def stop(self):
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                break
            for _ in range(50):
                done, _ = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    os.close(self.fd)
                    return
                self.drain(0.02)
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.fd)


def has_book_row(lines):
    return any(TITLE.search(line) for line in lines[1:-1])


def frames(timings):
    """(start, end) of each frame the app logged."""
    with open(timings) as f:
        return [(float(x[2]), float(x[1])) for x in (line.split() for line in f) if len(x) == 3 and x[0] == "frame"]


def key_to_frame(session, sent):
    """Milliseconds from writing a key at `sent` to the end of the first frame begun after it."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        later = [end for start, end in frames(session.timings) if start >= sent]
        if later:
            return (min(later) - sent) * 1000
        session.drain(0.005)
    raise SystemExit("no frame within 10 s of a key")


def ui_runs(name, start, loaded, repeats, idle_seconds, extra=None):
    """Starts the app `repeats` times: rows visible, fully loaded, peak memory; on the last run,
    idle CPU and `extra(session)`."""
    visible, full, memory, idle, extra_result = [], [], [], None, None
    for attempt in range(repeats):
        session = start()
        try:
            visible.append(session.wait(has_book_row, 300, "book row"))
            full.append(loaded(session))
            session.drain(0.3)
            memory.append(session.status("VmHWM"))
            if attempt == repeats - 1:
                if idle_seconds > 0:
                    idle = session.idle_share(idle_seconds)
                if extra:
                    extra_result = extra(session)
        finally:
            session.stop()
        log(f"  {name} run {attempt + 1}: rows visible {visible[-1]:.2f} s, loaded {full[-1]:.2f} s, peak {memory[-1] / 1048576:.0f} MiB")
    return Figure(visible), Figure(full), Figure(memory, "B"), (Figure([idle], "%") if idle is not None else na("--idle 0")), extra_result


def shelf_ui(shelf, folder, count, repeats, idle_seconds):
    timings = os.path.join(WORK, "shelf-timings.log")

    def start():
        return Session([shelf, "--data", folder], {"SHELF_TIMINGS": timings, "SWIFT_BACKTRACE": "interactive=no"}, timings)

    return ui_runs("shelf", start, lambda s: s.wait_loaded_log("books", 600), repeats, idle_seconds)


def visidata_ui(jsonl, count, repeats, idle_seconds, watch_seconds):
    home = os.path.join(WORK, "visidata-home")  # no user configuration, nothing written to the real home
    shutil.rmtree(home, ignore_errors=True)
    os.makedirs(home)
    vd = os.path.join(VENV, "bin", "vd")
    rows = re.compile(rf"\b{count} rows\b")

    def start():
        return Session([vd, "-f", "jsonl", jsonl], {"HOME": home})

    def loaded(session):
        def done(lines):
            status = lines[-1]
            return bool(rows.search(status)) and "reading" not in status and "loading" not in status
        return session.wait(done, 600, f"'{count} rows' in visidata's status line")

    def in_place(session):
        """Rewrites the first book's title in place (same length), then watches the screen."""
        with open(jsonl, "r+b") as f:
            first = f.readline()
            document = json.loads(first)
            old = document["title"]
            new = old[:-1] + ("X" if old[-1] != "X" else "Y")
            if old not in session.lines()[2]:
                return na(f"the first book is not on visidata's first row: {session.lines()[2]!r}")
            edited = first.replace(json.dumps(old, ensure_ascii=False).encode(), json.dumps(new, ensure_ascii=False).encode(), 1)
            assert len(edited) == len(first)
            os.pwrite(f.fileno(), edited, 0)
        try:
            end = time.monotonic() + watch_seconds
            while time.monotonic() < end:
                session.drain(0.05)
                if any(new in line for line in session.lines()):
                    return Figure([time.monotonic() - (end - watch_seconds)])
            return Figure(text=f"never (not shown in {watch_seconds:g} s; it does not watch its file)")
        finally:
            with open(jsonl, "r+b") as f:
                os.pwrite(f.fileno(), first, 0)

    return ui_runs("visidata", start, loaded, repeats, idle_seconds, in_place if watch_seconds > 0 else None)


# MARK: shelf-bench

DURATION = re.compile(r"(?:(\d+) min (\d+) s|(-?[\d.]+) (µs|ms|s))")


def seconds(text):
    m = DURATION.fullmatch(text.strip())
    if not m:
        raise ValueError(f"not a duration: {text!r}")
    if m.group(1):
        return int(m.group(1)) * 60 + int(m.group(2))
    return float(m.group(3)) * {"µs": 1e-6, "ms": 1e-3, "s": 1}[m.group(4)]


SIZE = r"(?:\d+ min \d+ s|-?[\d.]+ (?:µs|ms|s))"


def shelf_bench(bench, count, trials, ticks):
    """Runs shelf-bench for this one size; returns its figures (those it printed before any
    failure) and its output."""
    folder = os.path.join(WORK, "bench")
    os.makedirs(folder, exist_ok=True)
    # Its default write budget: beyond it, it seeds most files in bulk and writes a sample of
    # them durably one by one (its in-place editor reads both files it and Foundation write).
    command = [bench, "--sizes", str(count), "--dir", folder, "--trials", str(trials), "--ticks", str(ticks)]
    log("  " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in command))
    started = time.monotonic()
    # Its progress lines are shown as they come (a run at 100,000 takes minutes).
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in process.stdout:
        lines.append(line)
        if line.startswith("Summary"):
            log("    (its summary: in the log named below)")
        elif line.startswith("  ") and not line.startswith("   ") and "Summary\n" not in lines:
            log("    " + line.strip())
    status = process.wait()
    output = "".join(lines)
    failure = None
    if status != 0:
        last = lines[-1].strip() if lines else ""
        failure = f"shelf-bench stopped (status {status}) before printing it: {last[-240:]}"
    figures = {}

    def find(key, pattern, make):
        m = re.search(pattern, output)
        figures[key] = make(m) if m else na(failure or f"shelf-bench printed no line matching {pattern!r}")

    find("read", rf"getDocuments\(\) of [\d,]+ \(median of 3\): ({SIZE}) \[runs: ([^\]]*)\]",
         lambda m: Figure([seconds(r) for r in m.group(2).split(", ")]))
    find("memory", r"memory: .*peak ([\d.]+) (KiB|MiB|GiB)",
         lambda m: Figure([float(m.group(1)) * {"KiB": 1024, "MiB": 1048576, "GiB": 1073741824}[m.group(2)]], "B"))
    find("writes", rf"wrote [\d,]+ with setData\(from:\): ({SIZE}); per write median ({SIZE})",
         lambda m: Figure([seconds(m.group(1))], note=f"one run; median per write {m.group(2)}"))
    if figures["writes"].na:
        find("writes", rf"([\d,]+) durable writes into the collection .*per write median ({SIZE}).*extrapolated: ~({SIZE})",
             lambda m: Figure([seconds(m.group(3))], note=f"extrapolated from {m.group(1)} durable writes; median per write {m.group(2)}"))
    find("cpu", rf"CPU per external change, net of idle polling: ({SIZE})", lambda m: Figure([seconds(m.group(1))]))
    find("inplace", rf"in-place edit → \.modified: median ({SIZE}), max ({SIZE}) \((\d+)\)",
         lambda m: Figure([seconds(m.group(1))], note=f"median of {m.group(3)} edits, max {m.group(2)}"))
    if figures["inplace"].na and "in-place edit → .modified: none delivered" in output:
        figures["inplace"] = na("shelf-bench: no in-place edit was delivered in time")
    find("idle", r"idle listener, steady: .* = [-\d.]+ % of a core, (-?[\d.]+) % net of the baseline",
         lambda m: Figure([float(m.group(1)) / 100], "%"))
    log(f"  shelf-bench took {time.monotonic() - started:.0f} s" + (f"; {failure}" if failure else ""))
    return figures, output


BENCH_FIGURES = ("read", "memory", "writes", "cpu", "inplace", "idle")


# MARK: The table

def table(rows, count):
    headers = ["figure", "Shelf", "peer", "Shelf ÷ peer", "goal (at 100,000)"]
    cells = [[label, shelf.show(), (peer_name + " " + peer.show()) if peer is not None else "", ratio(shelf, peer) if peer else "", goal]
             for label, shelf, peer_name, peer, goal in rows]
    widths = [max(len(r[i]) for r in cells + [headers]) for i in range(len(headers))]
    out = ["| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths)) + " |",
           "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |" for row in cells]
    notes, reasons = [], {}
    for label, shelf, peer_name, peer, _ in rows:
        for who, figure in (("Shelf", shelf), (peer_name.rstrip(","), peer)):
            if figure is not None and figure.na:
                reasons.setdefault(figure.na, []).append(f"{label} ({who})")
            if figure is not None and figure.note:
                notes.append(f"  {label} ({who}): {figure.note}")
    notes += [f"  n/a: {', '.join(labels)}: {reason}" for reason, labels in reasons.items()]
    return "\n".join(out + ([""] + notes if notes else []))


def machine():
    load = open("/proc/loadavg").read().split()[:3]
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} cores ({cpu}), Linux {os.uname().release}, load average {' '.join(load)}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="Everything is made under .build-compare/ (git-ignored).")
    parser.add_argument("--count", type=int, default=100_000, help="books (default 100000)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each timing; medians printed (default 3)")
    parser.add_argument("--skip-peers", action="store_true", help="Shelf's figures only: no visidata, no TinyDB")
    parser.add_argument("--skip-bench", action="store_true", help="no shelf-bench (its figures print as n/a)")
    parser.add_argument("--no-build", action="store_true", help="use the release build as it is")
    parser.add_argument("--idle", type=float, default=10, help="seconds of each app's idle CPU after loading (default 10)")
    parser.add_argument("--watch", type=float, default=5, help="seconds to watch visidata after the in-place edit (default 5)")
    parser.add_argument("--bench-trials", type=int, default=10, help="shelf-bench --trials (default 10)")
    parser.add_argument("--bench-ticks", type=int, default=40, help="shelf-bench --ticks (default 40)")
    args = parser.parse_args()
    if args.count < 1 or args.repeats < 1:
        parser.error("--count and --repeats must be at least 1")

    run_in_venv(__file__, args.skip_peers)

    began = time.monotonic()
    release = os.path.join(ROOT, ".build", "release") if args.no_build else build()
    shelf, bench = os.path.join(release, "shelf"), os.path.join(release, "shelf-bench")
    for binary in (shelf, bench):
        if not os.access(binary, os.X_OK):
            raise SystemExit(f"compare: {binary} not found; build with `swift build -c release`")
    data = os.path.join(WORK, "data")
    os.makedirs(data, exist_ok=True)
    n = args.count

    log(f"writing {n} books with shelf generate, {args.repeats} times into fresh folders")
    writes = []
    for attempt in range(args.repeats):
        folder = os.path.join(data, "shelf" if attempt == args.repeats - 1 else f"write-{attempt}")
        writes.append(generate(shelf, folder, n))
        log(f"  run {attempt + 1}: {writes[-1]:.2f} s")
        if folder != os.path.join(data, "shelf"):
            shutil.rmtree(folder, ignore_errors=True)
    shelf_data = os.path.join(data, "shelf")
    shelf_write = Figure(writes, note="wall time of `shelf generate` (process start included), 500 books per durable batch")

    jsonl, tinydb = os.path.join(data, "books.jsonl"), os.path.join(data, "books.tinydb.json")
    none = na("--skip-peers")
    tiny_read = tiny_write = vd_visible = vd_loaded = vd_memory = vd_idle = vd_inplace = none
    if not args.skip_peers:
        log("converting the same books to JSON lines (visidata) and one TinyDB file")
        converted = convert(shelf_data, jsonl, tinydb)
        assert converted == n
        log(f"TinyDB: open + all(), {max(args.repeats, 5)} times; insert_multiple, {args.repeats} times")
        tiny_read = tinydb_figure(TINYDB_READ, [tinydb], n, max(args.repeats, 5))
        tiny_write = tinydb_figure(TINYDB_INSERT, [jsonl, os.path.join(data, "insert.tinydb.json")], n, args.repeats)
        tiny_write.note = "insert_multiple into a new file, then close: one json.dump, no fsync (not durable)"
        log(f"visidata {n} rows in a {COLUMNS}x{LINES} pseudo-terminal, {args.repeats} times")
        try:
            vd_visible, vd_loaded, vd_memory, vd_idle, vd_inplace = visidata_ui(jsonl, n, args.repeats, args.idle, args.watch)
        except RuntimeError as error:
            vd_visible = vd_loaded = vd_memory = vd_idle = vd_inplace = na(f"visidata: {str(error).splitlines()[0]}")
            log(str(error))
        if args.watch <= 0:
            vd_inplace = na("--watch 0")

    log(f"Shelf's UI on {n} books in a {COLUMNS}x{LINES} pseudo-terminal, {args.repeats} times")
    try:
        ui_visible, ui_loaded, ui_memory, ui_idle, _ = shelf_ui(shelf, shelf_data, n, args.repeats, args.idle)
    except RuntimeError as error:
        ui_visible = ui_loaded = ui_memory = ui_idle = na(f"shelf: {str(error).splitlines()[0]}")
        log(str(error))

    bench_output = ""
    if args.skip_bench:
        figures = {k: na("--skip-bench") for k in BENCH_FIGURES}
    else:
        log(f"shelf-bench at {n}: minutes at 100,000 (durable writes one by one, the watcher's 60 s hot window, external edits)")
        figures, bench_output = shelf_bench(bench, n, args.bench_trials, args.bench_ticks)
        with open(os.path.join(WORK, "shelf-bench.log"), "w") as f:
            f.write(bench_output)
    if not figures["read"].na:
        figures["read"].note = "shelf-bench's 3 runs on its own generated books of the same count, page cache warm"
    if not tiny_read.na:
        tiny_read.note = "a fresh interpreter per run; import of tinydb included, interpreter start not"

    never = Figure(text="never (does not watch files)")
    rows = [
        ("rows visible after start", ui_visible, "visidata", vd_visible, "≤ 0.1 s"),
        ("fully loaded", ui_loaded, "visidata", vd_loaded, "≤ 0.5 s"),
        ("peak memory of the app", ui_memory, "visidata", vd_memory, "≤ 100 MB"),
        (f"getDocuments() of all {n:,}", figures["read"], "TinyDB open and read all", tiny_read, "≤ 0.35 s"),
        (f"peak memory, shelf-bench at {n:,}", figures["memory"], "", None, "≤ 150 MiB"),
        (f"writing {n:,} documents durably", shelf_write, "TinyDB bulk insert, not durable,", tiny_write, "≤ 4 s, in batches"),
        ("  the same one by one (shelf-bench, setData)", figures["writes"], "", None, ""),
        ("CPU per change made by another program", figures["cpu"], "visidata", never if not args.skip_peers else none, "≤ 1 ms"),
        ("in-place edit by another program, until delivered", figures["inplace"], "visidata", vd_inplace, "≤ 2 polling intervals"),
        ("idle polling (shelf-bench: listener, steady, net)", figures["idle"], "", None, "≤ 0.2 %"),
        (f"app's CPU while idle, {args.idle:g} s after loading", ui_idle, "visidata", vd_idle, ""),
    ]
    print()
    print(f"Shelf and its peers on the same {n:,} books (shelf generate; visidata on them as JSON lines, TinyDB as one file)")
    print(f"machine: {machine()}")
    print(f"versions: {peer_versions(args.skip_peers)}; medians of {args.repeats} runs unless noted")
    print()
    print(table(rows, n))
    print()
    print("Shelf ÷ peer: Shelf's median over the peer's (below 1: Shelf is faster or smaller).")
    print(f"The whole run took {time.monotonic() - began:.0f} s; shelf-bench's full output is in "
          f"{os.path.relpath(os.path.join(WORK, 'shelf-bench.log'), ROOT)}.")


def peer_versions(skip_peers):
    versions = [f"Python {sys.version.split()[0]}"]
    if not skip_peers:
        import tinydb, visidata
        versions += [f"visidata {visidata.__version__}", f"TinyDB {tinydb.__version__}"]
    return ", ".join(versions)


if __name__ == "__main__":
    main()
