#!/usr/bin/env python3
"""UI benchmark: starts the real `shelf` binary in a pseudo-terminal on generated collections
of 1,000 / 10,000 / 100,000 books and prints time to first screen, time to fully loaded,
per-key latency (key read -> frame drawn) for moving, filtering and switching tabs, and
peak memory. Figures, not assertions: the machines are shared and noisy, so it prints medians
and the 95th percentile.

    swift build -c release --product shelf
    python3 scripts/ui-bench.py [--sizes 1000,10000,100000] [--binary .build/release/shelf]

Collections are made once with `shelf generate` into --cache (default: a temporary folder);
that is seeding, not measured.
"""
import argparse, fcntl, os, pty, select, shutil, signal, statistics, struct, subprocess, sys, tempfile, termios, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def seed(binary, folder, count):
    """A books collection of `count` synthetic books, made by `shelf generate` (kept in --cache)."""
    books = os.path.join(folder, "books")
    if os.path.isdir(books) and len(os.listdir(books)) == count:
        return
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    subprocess.run([binary, "generate", "--data", folder, "--count", str(count)], check=True, stdout=subprocess.DEVNULL)


class Session:
    """The app in a pty of 100x30, output drained in the background of each wait."""

    def __init__(self, binary, folder, timings):
        self.timings = timings
        pid, fd = pty.fork()
        if pid == 0:
            env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", SHELF_TIMINGS=timings,
                       SWIFT_BACKTRACE="interactive=no")
            os.execve(binary, [binary, "--data", folder], env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.started = time.monotonic()
        self.output = b""

    def drain(self, seconds):
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.output += os.read(self.fd, 65536)
                except OSError:
                    return

    def wait_output(self, needle, timeout):
        end = time.monotonic() + timeout
        while needle not in self.output:
            if time.monotonic() > end:
                raise SystemExit(f"no {needle!r} on screen after {timeout} s")
            self.drain(0.005)
        return time.monotonic()

    def log(self):
        with open(self.timings) as f:
            return [line.split() for line in f if line.strip()]

    def wait_log(self, kind, value, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for fields in self.log():
                if fields[0] == kind and fields[1] == value:
                    return float(fields[2])
            self.drain(0.02)
        raise SystemExit(f"no '{kind} {value}' in the timing log after {timeout} s")

    def frame_ms(self, ended):
        """How long the frame that ended at `ended` (a logged time) took to render and draw."""
        for fields in self.log():
            if fields[0] == "frame" and fields[1] == ended:
                return (float(fields[1]) - float(fields[2])) * 1000
        raise SystemExit(f"no frame ending at {ended} in the timing log")

    def wait_log_text(self, kind, value, timeout):
        """The logged time, as written, of the first `kind value` line."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for fields in self.log():
                if fields[0] == kind and fields[1] == value:
                    return fields[2]
            self.drain(0.02)
        raise SystemExit(f"no '{kind} {value}' in the timing log after {timeout} s")

    def keys(self, data, pause=0.06):
        for chunk in data:
            os.write(self.fd, chunk.encode())
            self.drain(pause)

    def peak_rss_mb(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024

    def quit(self):
        os.write(self.fd, b"q")
        self.drain(0.3)
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)


def latencies(log, since):
    """Milliseconds from each batch of keys to the frame that showed it."""
    return [(float(f[2]) - float(f[1])) * 1000 for f in log if f[0] == "keys" and float(f[1]) >= since]


def summary(values):
    if not values:
        return "-"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return f"{statistics.median(values):6.2f} / {p95:6.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/shelf"))
    parser.add_argument("--cache", default=None, help="where generated collections are kept between runs")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        raise SystemExit(f"{args.binary} not found: build it first with `swift build -c release --product shelf`")
    cache = args.cache or tempfile.mkdtemp(prefix="shelf-ui-bench-")
    print(f"binary {args.binary}; {os.cpu_count()} cores; {os.uname().release}; data in {cache}")
    print(f"{'books':>8} | {'first screen':>12} | {'loaded':>8} | {'full frame':>10} | {'move ms (median / p95)':>22} | "
          f"{'filter key ms':>15} | {'tab switch ms':>15} | {'sort key ms':>15} | {'peak RSS':>8}")
    for size in [int(s) for s in args.sizes.split(",")]:
        folder = os.path.join(cache, str(size))
        seed(args.binary, folder, size)
        timings = os.path.join(cache, f"timings-{size}.log")
        session = Session(args.binary, folder, timings)
        first = session.wait_output(b"Books", 30) - session.started
        loaded_at = session.wait_log_text("loaded", "books", 300)
        loaded = float(loaded_at) - session.started
        full_frame = session.frame_ms(loaded_at)
        mark = time.monotonic()
        session.keys(["j"] * 40 + ["G", "g"] * 5)
        moves = latencies(session.log(), mark)
        mark = time.monotonic()
        session.keys(["/"] + list("river 9") + ["\x1b"] + ["/"] + list("lantern") + ["\r", "\x1b"])
        filters = latencies(session.log(), mark)
        mark = time.monotonic()
        session.keys(["2", "1"] * 8, pause=0.15)
        switches = latencies(session.log(), mark)
        mark = time.monotonic()
        # Author, pages, back to title (three columns), each way.
        session.keys(["s", "S"] * 3 + ["s"] * 3, pause=0.3)
        sorts = latencies(session.log(), mark)
        rss = session.peak_rss_mb()
        session.quit()
        print(f"{size:>8} | {first * 1000:9.0f} ms | {loaded:6.2f} s | {full_frame:7.0f} ms | {summary(moves):>22} | "
              f"{summary(filters):>15} | {summary(switches):>15} | {summary(sorts):>15} | {rss:5.0f} MB")
    print("first screen: spawn to the tab bar on the pty; loaded: spawn to the first frame with every book;")
    print("full frame: that frame's render and draw (it orders the books by title; over 20,000 books their")
    print("sort keys were made in the frames before it, 5,000 a frame);")
    print("key latency: key read by the app to the end of the frame that shows it (render + ncurses output).")
    if not args.cache:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
