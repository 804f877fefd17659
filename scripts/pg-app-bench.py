#!/usr/bin/env python3
"""The app on PostgreSQL with a million books: issue 12's "the app's first rows ≤ 200 ms after start".

    swift build -c release --product shelf
    python3 scripts/pg-app-bench.py [--count 1000000] [--repeats 3] [--url postgresql://…]

Without --url it starts a throwaway PostgreSQL of its own (initdb in a temporary folder, a free
port on 127.0.0.1, PostgreSQL's default durability settings, run as nobody when run as root) and
stops it at the end; with --url it uses that database's books as they are (add --seed to write
COUNT books into it first). The books are written by `shelf generate --data URL` (seeding, timed
but not a figure of the app). Then the
real `shelf` starts --repeats times in a 100x30 pseudo-terminal and it prints, as medians:

  rows visible after start   spawn until a book row is on screen
  fully loaded               until every book is in (Shelf's `loaded books` timing line)
  peak memory of the app     VmHWM once fully loaded

It shares compare.py's terminal sessions (pyte, in compare.py's virtual environment).
"""
import argparse, os, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402
from pg_cluster import Cluster  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1_000_000, help="books (default 1000000)")
    parser.add_argument("--repeats", type=int, default=3, help="app starts; medians printed (default 3)")
    parser.add_argument("--url", help="a database of your own (postgresql://…); default: a throwaway cluster")
    parser.add_argument("--seed", action="store_true", help="with --url: write COUNT books into it first")
    parser.add_argument("--binary", default=os.path.join(compare.ROOT, ".build", "release", "shelf"))
    args = parser.parse_args()
    compare.run_in_venv(__file__, skip_peers=True)
    compare.require_release_binary(args.binary, "pg-app-bench")
    cluster = None if args.url else Cluster()
    try:
        url = args.url or cluster.url
        shown = url.split("@")[-1]
        if args.url is None or args.seed:
            compare.log(f"writing {args.count} books into {shown} with shelf generate")
            started = time.monotonic()
            subprocess.run([args.binary, "generate", "--data", url, "--count", str(args.count)], check=True, stdout=subprocess.DEVNULL)
            compare.log(f"  written in {time.monotonic() - started:.0f} s")
        visible, loaded, memory, _, _ = compare.shelf_ui(args.binary, url, args.count, args.repeats, 0)
        print(f"shelf on PostgreSQL ({shown}), {args.count:,} books, {os.cpu_count()} cores, medians of {args.repeats}:")
        print(f"  rows visible after start  {visible.show()}   (aim ≤ 200 ms)")
        print(f"  fully loaded              {loaded.show()}")
        print(f"  peak memory of the app    {memory.show()}")
    finally:
        if cluster:
            cluster.stop()


if __name__ == "__main__":
    main()
