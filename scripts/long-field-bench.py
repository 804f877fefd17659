#!/usr/bin/env python3
"""Long-field benchmark: the real `shelf` binary in a 100x30 pseudo-terminal on a books
collection where one book's title is a single word as long as a document may be (1 MiB in
all), next to an ordinary book. Prints the frame time (render + ncurses output, from the
app's timing log) and the key latency (key read -> frame drawn) while moving onto and off that
book, opening its form and editing at both ends of the word. Figures, not assertions; the
target is a frame of at most 16 ms.

    swift build -c release --product shelf
    python3 scripts/long-field-bench.py [--binary .build/release/shelf] [--repeat 10]
"""
import argparse, json, os, shutil, statistics, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ui_bench = __import__("ui-bench")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORD_BYTES = (1 << 20) - 200  # room for the other fields and the names


def seed(folder):
    books = os.path.join(folder, "books")
    os.makedirs(books)
    with open(os.path.join(books, "a-long.json"), "w") as f:
        json.dump({"title": "w" * WORD_BYTES, "author": "A. Author", "numberOfPages": 1}, f)
    with open(os.path.join(books, "b-short.json"), "w") as f:
        json.dump({"title": "Short", "author": "B. Author", "numberOfPages": 2}, f)


def frames(log, since):
    """Milliseconds each frame took, from its start to the end of its output."""
    return [(float(f[1]) - float(f[2])) * 1000 for f in log if f[0] == "frame" and len(f) > 2 and float(f[2]) >= since]


def summary(values):
    if not values:
        return "-"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return f"median {statistics.median(values):6.2f} ms, p95 {p95:6.2f} ms, max {values[-1]:6.2f} ms ({len(values)} frames)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/shelf"))
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        raise SystemExit(f"{args.binary} not found: build it first with `swift build -c release --product shelf`")
    scratch = tempfile.mkdtemp(prefix="shelf-long-field-")
    try:
        folder = os.path.join(scratch, "data")
        seed(folder)
        timings = os.path.join(scratch, "timings.log")
        session = ui_bench.Session(args.binary, folder, timings)
        session.wait_output(b"Books", 30)
        while not os.path.exists(timings):
            session.drain(0.02)
        session.wait_log("loaded", "books", 60)
        session.drain(0.3)
        print(f"binary {args.binary}; {os.cpu_count()} cores; {os.uname().release}; title of {WORD_BYTES:,} bytes, one word")
        mark = time.monotonic()
        session.keys(["j", "k"] * args.repeat)
        browse = session.log()
        print(f"detail of the long book:   frame {summary(frames(browse, mark))}")
        print(f"                           key latency {ui_bench.summary(ui_bench.latencies(browse, mark))} ms (median / p95)")
        mark = time.monotonic()
        session.keys(["e"], pause=0.5)
        session.keys(["\x1b[1~", "A", "\x1b[4~", "Z", "\x7f", "\x1bOH", "\x1b[3~"] * args.repeat)
        form = session.log()
        print(f"form on the long title:    frame {summary(frames(form, mark))}")
        print(f"                           key latency {ui_bench.summary(ui_bench.latencies(form, mark))} ms (median / p95)")
        session.keys(["\x1b", "y"], pause=0.3)
        session.quit()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
