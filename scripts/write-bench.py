#!/usr/bin/env python3
"""`shelf generate` and `shelf export` beside the disk's floor, in one session, alternately.

    swift build -c release --product shelf
    python3 scripts/write-bench.py [--count 100000] [--rounds 3] [--dir /tmp] [--before OLD-SHELF]

Each round writes COUNT books with `shelf generate` into a new folder, the same number of files
of the same size with scripts/write-floor.c (temporary name, write, rename, one `syncfs` every
500: a batch's own work, without encoding, times or journal), and exports the generated books
into another new folder with `shelf export`. Nothing is deleted until the end: ext4 without a
journal (this machine's disk) skips inodes freed in the last minutes when it allocates new ones,
which slows whatever writes next by up to 3×, so run it well after deleting other large
folders. What runs later in a round finds the file system fuller, so the floor takes each place
in turn from round to round (first, after generate, after export, …). Prints each round's wall
times and the medians' ratios to the floor. With --before, an earlier build of shelf generates
and exports in each round too, after the others.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(command):
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - start


def books_size(work, shelf):
    """The median size of a generated book's file (the floor writes files of that size)."""
    folder = os.path.join(work, "size-sample")
    subprocess.run([shelf, "generate", "--data", folder, "--count", "1000"], check=True, stdout=subprocess.DEVNULL)
    books = os.path.join(folder, "books")
    return int(statistics.median(os.path.getsize(os.path.join(books, n)) for n in os.listdir(books)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="where the folders are made (one file system)")
    parser.add_argument("--shelf", default=os.path.join(ROOT, ".build", "release", "shelf"))
    parser.add_argument("--before", help="an earlier shelf binary to time in the same rounds")
    args = parser.parse_args()
    if not os.access(args.shelf, os.X_OK):
        sys.exit(f"{args.shelf} is missing: swift build -c release --product shelf")
    work = tempfile.mkdtemp(prefix="shelf-write-bench-", dir=args.dir)
    floor = os.path.join(work, "write-floor")
    subprocess.run(["cc", "-O2", "-o", floor, os.path.join(ROOT, "scripts", "write-floor.c")], check=True)
    rows = []
    binaries = [("", args.shelf)] + ([("before-", args.before)] if args.before else [])
    size = None
    try:
        for round in range(1, args.rounds + 1):
            row = {}
            steps = []
            for name, shelf in binaries:
                generated = os.path.join(work, f"{name}generated-{round}")
                steps.append((name + "generate", [shelf, "generate", "--data", generated, "--count", str(args.count)]))
                steps.append((name + "export", [shelf, "export", "--data", generated, "--to", os.path.join(work, f"{name}export-{round}")]))
            # What runs later in a round finds the file system fuller: the floor takes each
            # place in turn (first, between, last), so the medians compare like with like.
            steps.insert((round - 1) % (len(steps) + 1), ("floor", None))
            for key, command in steps:
                if command is None:
                    if size is None:
                        size = books_size(work, args.shelf)
                    command = [floor, os.path.join(work, f"floor-{round}"), str(args.count), "500", str(size)]
                row[key] = timed(command)
            rows.append({key: row[key] for key in ["floor"] + [name + step for name, _ in binaries for step in ("generate", "export")]})
            print(f"round {round}: " + ", ".join(f"{key} {value:.2f} s" for key, value in row.items()), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    columns = list(rows[0])
    print(f"{args.count:,} books of about {size} bytes; wall times, and ÷ floor")
    print("| round | " + " | ".join(columns) + " |")
    print("|---:|" + "---:|" * len(columns))
    def line(label, row):
        cells = [f"{row[key]:.2f} s" + ("" if key == "floor" else f" ({row[key] / row['floor']:.2f}×)") for key in columns]
        print(f"| {label} | " + " | ".join(cells) + " |")
    for index, row in enumerate(rows, 1):
        line(str(index), row)
    line("median", {key: statistics.median(row[key] for row in rows) for key in columns})


if __name__ == "__main__":
    main()
