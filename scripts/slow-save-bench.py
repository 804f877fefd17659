#!/usr/bin/env python3
"""Keys during a slow save: a save on a PostgreSQL server made slow on purpose (a trigger that
sleeps 500 ms on every row written) must leave keys answered within a frame.

    swift build -c release --product shelf
    python3 scripts/slow-save-bench.py [--saves 5] [--delay 0.5]

It starts a throwaway PostgreSQL (pg_cluster.py), writes 1,000 books with `shelf generate`, adds
the trigger, and runs the real `shelf` in a 100x30 pseudo-terminal twice: on the database
directly (postgresql://) and as a client of `shelf serve` on it (firestore://). Each save edits
the selected book's title and presses Enter, then presses j or k every 40 ms until the save's
"Saved" is on screen. It prints, as medians and maxima over all keys pressed while a save was
under way:

  key to frame     the benchmark writing the key until the app ends the frame that shows it
                   (the app's SHELF_TIMINGS frame lines, on the same CLOCK_MONOTONIC)
  save to Saved    Enter until "Saved books/…" is on the pty (at least the trigger's delay)

and whether "Saving books/…" was on screen meanwhile.
"""
import argparse, importlib, os, socket, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pg_cluster import Cluster  # noqa: E402
ui_bench = importlib.import_module("ui-bench")  # its raw pty Session and timing log

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def frames(session):
    """(start, end) of each frame the app logged."""
    return [(float(f[2]), float(f[1])) for f in session.log() if f[0] == "frame"]


def key_to_frame(session, sent):
    """Milliseconds from writing a key at `sent` to the end of the first frame begun after it."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        later = [end for start, end in frames(session) if start >= sent]
        if later:
            return (min(later) - sent) * 1000
        session.drain(0.005)
    raise SystemExit("no frame within 10 s of a key")


def run_saves(binary, data, saves, timings):
    session = ui_bench.Session(binary, data, timings)
    try:
        session.wait_output(b"Books", 60)
        session.wait_log("loaded", "books", 120)
        latencies, durations, saw_saving = [], [], 0
        for index in range(saves):
            session.keys(["e"], pause=0.3)
            session.keys(["!", "\r"], pause=0)
            entered = time.monotonic()
            mark = len(session.output)
            key = "j" if index % 2 == 0 else "k"
            while b"Saved books/" not in session.output[mark:]:
                if time.monotonic() - entered > 30:
                    raise SystemExit(f"no 'Saved' 30 s after a save; screen bytes: {session.output[mark:][-400:]!r}")
                sent = time.monotonic()
                session.keys([key], pause=0)
                latencies.append(key_to_frame(session, sent))
                session.drain(max(0, 0.04 - (time.monotonic() - sent)))
            durations.append(time.monotonic() - entered)  # to within a key's 40 ms
            saw_saving += b"Saving books/" in session.output[mark:]
            session.drain(0.2)
        return latencies, durations, saw_saving
    finally:
        session.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=5, help="saves per run (default 5)")
    parser.add_argument("--delay", type=float, default=0.5, help="seconds the trigger sleeps per row (default 0.5)")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "shelf"))
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        raise SystemExit(f"slow-save-bench: {args.binary} not found: build it with `swift build -c release --product shelf`")
    cluster = Cluster()
    server = None
    work = tempfile.mkdtemp(prefix="shelf-slow-save-")
    try:
        subprocess.run([args.binary, "generate", "--data", cluster.url, "--count", "1000"], check=True, stdout=subprocess.DEVNULL)
        cluster.sql(f"CREATE FUNCTION shelf_bench_slow() RETURNS trigger LANGUAGE plpgsql AS "
                    f"$$ BEGIN PERFORM pg_sleep({args.delay}); RETURN NEW; END $$; "
                    "CREATE TRIGGER shelf_bench_slow BEFORE INSERT OR UPDATE ON shelf_documents "
                    "FOR EACH ROW EXECUTE FUNCTION shelf_bench_slow()")
        port = free_port()
        server = subprocess.Popen([args.binary, "serve", "--data", cluster.url, "--port", str(port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        print(f"{os.cpu_count()} cores; a trigger sleeps {args.delay} s on every row written; {args.saves} saves a run")
        print(f"{'the app on':<34} | {'key to frame ms (median / max)':>30} | {'keys':>4} | {'save to Saved s':>15} | Saving shown")
        for name, data in [("PostgreSQL (postgresql://)", cluster.url),
                           ("shelf serve on it (firestore://)", f"firestore://127.0.0.1:{port}/demo")]:
            latencies, durations, saw = run_saves(args.binary, data, args.saves, os.path.join(work, "timings.log"))
            print(f"{name:<34} | {statistics.median(latencies):13.1f} / {max(latencies):13.1f} | {len(latencies):>4} | "
                  f"{statistics.median(durations):15.2f} | {saw}/{args.saves}")
    finally:
        if server:
            server.terminate()
            server.wait()
        cluster.stop()


if __name__ == "__main__":
    main()
