#!/usr/bin/env python3
"""Keys during a slow save: a save on a PostgreSQL server made slow on purpose (a trigger that
sleeps 500 ms on every row an edit updates) must leave keys answered within a frame.

    swift build -c release --product shelf
    python3 scripts/slow-save-bench.py [--saves 5] [--delay 0.5]

It starts a throwaway PostgreSQL (pg_cluster.py), writes 1,000 books with `shelf generate`, adds
the trigger, and runs the real `shelf` in a 100x30 pseudo-terminal twice: on the database
directly (postgresql://) and as a client of `shelf serve` on it (firestore://), each with the
trigger disabled (fast: the peer in the same run) and enabled (slow). Each save edits
the selected book's title and presses Enter, then presses j or k every 40 ms until the save's
"Saved" is on screen. It prints, as medians and maxima over all keys pressed while a save was
under way:

  key to frame     the benchmark writing the key until the app ends the frame that shows it
                   (the app's SHELF_TIMINGS frame lines, on the same CLOCK_MONOTONIC)
  save to Saved    Enter until "Saving books/…" leaves the status line (at least the trigger's
                   delay); then `m` must list "Saved books/…"

and how many saves showed "Saving books/…" meanwhile.
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (its pyte terminal sessions, in its virtual environment)
from pg_cluster import Cluster  # noqa: E402
import servers  # noqa: E402


def status_line(session):
    return session.lines()[-2]


def press(session, keys, pause):
    for key in keys:
        os.write(session.fd, key.encode())
        session.drain(pause)


def run_saves(binary, data, saves, timings):
    session = compare.Session([binary, "--data", data], {"SHELF_TIMINGS": timings, "SWIFT_BACKTRACE": "interactive=no"}, timings)
    try:
        session.wait(compare.has_book_row, 60, "a book row")
        session.wait_loaded_log("books", 120)
        latencies, durations, saw_saving = [], [], 0
        for index in range(saves):
            press(session, ["e"], 0.3)
            press(session, ["!", "\r"], 0)
            entered = time.monotonic()
            key = "j" if index % 2 == 0 else "k"
            saving = False
            # Until the save ends: "Saving…" went (a key may clear "Saved" in the frame it came).
            while "Saved books/" not in status_line(session) and (not saving or "Saving books/" in status_line(session)):
                if time.monotonic() - entered > 30:
                    raise SystemExit("the save did not end within 30 s; the screen:\n" + "\n".join(session.lines()))
                saving = saving or "Saving books/" in status_line(session)
                sent = time.monotonic()
                os.write(session.fd, key.encode())
                latencies.append(compare.key_to_frame(session, sent))
                session.drain(max(0, 0.04 - (time.monotonic() - sent)))
            durations.append(time.monotonic() - entered)  # to within a key's 40 ms
            saw_saving += saving
            press(session, ["m"], 0.3)  # the messages: the save's result is the last one
            if not any("Saved books/" in line for line in session.lines()):
                raise SystemExit("no 'Saved' among the messages after a save; the screen:\n" + "\n".join(session.lines()))
            press(session, ["\x1b"], 0.3)
        return latencies, durations, saw_saving
    finally:
        session.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=5, help="saves per run (default 5)")
    parser.add_argument("--delay", type=float, default=0.5, help="seconds the trigger sleeps per row (default 0.5)")
    parser.add_argument("--binary", default=os.path.join(compare.ROOT, ".build", "release", "shelf"))
    args = parser.parse_args()
    compare.run_in_venv(__file__, skip_peers=True)
    compare.require_release_binary(args.binary, "slow-save-bench")
    cluster = Cluster()
    server = None
    work = tempfile.mkdtemp(prefix="shelf-slow-save-")
    try:
        subprocess.run([args.binary, "generate", "--data", cluster.url, "--count", "1000"], check=True, stdout=subprocess.DEVNULL)
        cluster.sql(f"CREATE FUNCTION shelf_bench_slow() RETURNS trigger LANGUAGE plpgsql AS "
                    f"$$ BEGIN PERFORM pg_sleep({args.delay}); RETURN NEW; END $$; "
                    "CREATE TRIGGER shelf_bench_slow BEFORE UPDATE ON shelf_documents "
                    "FOR EACH ROW EXECUTE FUNCTION shelf_bench_slow()")
        server = servers.shelf(args.binary, cluster.url)
        print(f"{os.cpu_count()} cores; a trigger sleeps {args.delay} s on every row an edit updates; {args.saves} saves a run")
        print(f"{'the app on':<40} | {'key to frame ms (median / max)':>30} | {'keys':>4} | {'save to Saved s':>15} | Saving shown")
        for name, data in [("PostgreSQL (postgresql://)", cluster.url),
                           ("shelf serve on it (firestore://)", f"firestore://{server.address}/demo")]:
            for slow in (False, True):  # the same saves without the trigger: the peer in this run
                cluster.sql(f"ALTER TABLE shelf_documents {'ENABLE' if slow else 'DISABLE'} TRIGGER shelf_bench_slow")
                latencies, durations, saw = run_saves(args.binary, data, args.saves, os.path.join(work, "timings.log"))
                label = f"{name}, {'slow' if slow else 'fast'}"
                print(f"{label:<40} | {statistics.median(latencies):13.1f} / {max(latencies):13.1f} | {len(latencies):>4} | "
                      f"{statistics.median(durations):15.2f} | {saw}/{args.saves}")
    finally:
        if server:
            server.stop()
        cluster.stop()


if __name__ == "__main__":
    main()
