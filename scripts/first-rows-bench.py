#!/usr/bin/env python3
"""The first rows of a large folder, start after start, alternating between builds.

    swift build -c release --product shelf
    python3 scripts/first-rows-bench.py [--count 1000000] [--starts 8] [--before OLD-SHELF] [--loaded] [--first-word] [--cold]

Starts the real binary on the folder of COUNT generated books that size-bench.py keeps under
.build-compare/sizes/ (run it once first), in a 100x30 pseudo-terminal, until a book row is on
screen, then stops it; STARTS times, each build in turn, so a noisy machine weighs on both
alike. Prints each build's median and every start, sorted. With --loaded each start also waits
until the books are all in (the app's `loaded books` timing line) and prints that time and the
peak memory; without it a start costs about as much as the first rows take. With --first-word
each start, once loaded, then opens the filter (`/`), waits 0.2 s as a person would before
typing, types `r` and waits until every row is matched (no "Filtering" line): it prints that
time, and the app's CPU time meanwhile. With --cold (as root) each start follows
`echo 3 > /proc/sys/vm/drop_caches`: the binary, Swift's libraries and the books come from the
disk, as after a boot.
"""
import argparse, importlib, os, statistics, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402
size_bench = importlib.import_module("size-bench")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--starts", type=int, default=8)
    parser.add_argument("--shelf", default=os.path.join(compare.ROOT, ".build", "release", "shelf"))
    parser.add_argument("--before", help="an earlier shelf binary, started in turn with this one")
    parser.add_argument("--loaded", action="store_true", help="also time each start until fully loaded, and its peak memory")
    parser.add_argument("--first-word", action="store_true", help="then time the first filter word (implies --loaded)")
    parser.add_argument("--cold", action="store_true", help="each start just after the page cache is dropped (root)")
    args = parser.parse_args()
    args.loaded = args.loaded or args.first_word
    compare.run_in_venv(__file__, skip_peers=True)
    compare.require_release_binary(args.shelf, "first-rows-bench")
    folder = os.path.join(compare.WORK, "sizes", f"folder-{args.count}")
    if not os.path.isdir(os.path.join(folder, "books")):
        raise SystemExit(f"first-rows-bench: {folder} not found: make it with `python3 scripts/size-bench.py --folder {args.count} --postgres ''`")
    binaries = [("this build", args.shelf)] + ([("before", args.before)] if args.before else [])
    timings = os.path.join(compare.WORK, "first-rows-timings.log")
    starts = {name: ([], [], [], [], []) for name, _ in binaries}
    for _ in range(args.starts):
        for name, shelf in binaries:
            if args.cold:
                size_bench.drop_page_cache()
            session = compare.Session([shelf, "--data", folder], {"SWIFT_BACKTRACE": "interactive=no", "SHELF_TIMINGS": timings}, timings)
            try:
                starts[name][0].append(session.wait(compare.has_book_row, 60, "a book row"))
                if args.loaded:
                    starts[name][1].append(session.wait_loaded_log("books", 1800))
                    session.drain(0.2)
                    starts[name][2].append(session.status("VmHWM") / 1048576)
                if args.first_word:
                    word, cpu = first_word(session)
                    starts[name][3].append(word)
                    starts[name][4].append(cpu)
            finally:
                session.stop()
            time.sleep(1 if args.loaded else 0.5)  # the stopped app's memory given back before the next start
    print(f"{args.count:,} books, {args.starts} starts each")
    for name, (first, loaded, memory, words, cpus) in starts.items():
        line = f"{name}: first rows median {1000 * statistics.median(first):.0f} ms (" + " ".join(f"{1000 * s:.0f}" for s in sorted(first)) + ")"
        if loaded:
            line += (f"; loaded {statistics.median(loaded):.2f} s (" + " ".join(f"{s:.2f}" for s in sorted(loaded))
                     + f"); peak {statistics.median(memory):.0f} MiB (" + " ".join(f"{m:.0f}" for m in sorted(memory)) + ")")
        if words:
            line += (f"; first word {statistics.median(words):.2f} s (" + " ".join(f"{s:.2f}" for s in sorted(words))
                     + f"), CPU {statistics.median(cpus):.2f} s (" + " ".join(f"{s:.2f}" for s in sorted(cpus)) + ")")
        print(line)


def first_word(session):
    """Seconds from `r` typed in the open filter to every row matched, and the app's CPU seconds."""
    sent = time.monotonic()
    os.write(session.fd, b"/")
    compare.key_to_frame(session, sent)
    session.drain(0.2)
    cpu, sent = session.cpu_seconds(), time.monotonic()
    os.write(session.fd, b"r")
    compare.key_to_frame(session, sent)
    session.drain(0.01)
    session.wait(size_bench.filtered, 120, "every row matched")
    return time.monotonic() - sent, session.cpu_seconds() - cpu


if __name__ == "__main__":
    main()
