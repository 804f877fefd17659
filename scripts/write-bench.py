#!/usr/bin/env python3
"""`shelf generate` and `shelf export` beside the disk's floor, in one session, alternately.

    swift build -c release --product shelf
    python3 scripts/write-bench.py [--count 100000] [--rounds 3] [--dir /tmp] [--before OLD-SHELF] [--fresh]

Each round writes COUNT books with `shelf generate` into a new folder, the same number of files
of the same size with scripts/write-floor.c (temporary name, write, rename, one `syncfs` every
500: a batch's own work, without encoding, times or journal), and exports the generated books
into another new folder with `shelf export` (the exports copy books generated at the start of
the round, untimed). Nothing is deleted until the end: ext4 without a journal (this machine's
disk) skips inodes freed in the last minutes when it allocates new ones, which slows whatever
writes next by up to 3×, so run it well after deleting other large folders. What runs later in
a round is slower, so each round's order is the last one's turned by one: every step takes
every place in turn (give a multiple of 3 rounds, of 5 with --before). Prints each round's wall
times and the ratios of the medians and of the means to the floor: each step took each place
equally often, so the means are the fair comparison when places differ much. With --before, an earlier build of shelf generates
and exports in each round too, its steps turned in with the others.

With --fresh (as root) each step writes into a file system of its own, made just before it: an
ext4 without a journal, as this machine's disk, its inode tables zeroed by mkfs (not in the
background while steps run), in a sparse file in DIR mounted through a loop device, unmounted
and removed once the step is timed. No step then finds the inodes another freed,
and the disk under them is the same. Before each step everything written so far is flushed
(`sync`), so that no step pays for an earlier one's writeback.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(command):
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - start


class FreshFileSystems:
    """A new ext4 for each folder asked for (`folder`), each in a sparse file of `work`, with
    room for `count` small files; `close` unmounts and removes them all."""

    def __init__(self, work, count):
        self.work, self.count, self.mounted = work, count, []

    def folder(self, name):
        image, mount = os.path.join(self.work, name + ".img"), os.path.join(self.work, name + ".fs")
        with open(image, "wb") as f:
            f.truncate(self.count * 12 * 1024 + (256 << 20))  # 4 KiB a file, an inode each 4 KiB, and room
        # Inode tables zeroed now, not by the kernel's ext4lazyinit thread in the background
        # while the steps write (the file systems of later steps would share the disk with it).
        subprocess.run(["mkfs.ext4", "-q", "-F", "-O", "^has_journal", "-i", "4096",
                        "-E", "lazy_itable_init=0", image], check=True)
        os.makedirs(mount)
        subprocess.run(["mount", "-o", "loop", image, mount], check=True)
        self.mounted.append((mount, image))
        return os.path.join(mount, name)

    def release(self, folder):
        """Unmounts and removes the file system `folder` is in, once its step is timed."""
        for mount, image in [pair for pair in self.mounted if folder.startswith(pair[0] + os.sep)]:
            subprocess.run(["umount", mount], check=False)
            os.remove(image)
            self.mounted.remove((mount, image))

    def close(self):
        for mount, image in self.mounted:
            subprocess.run(["umount", mount], check=False)
            os.remove(image)
        self.mounted = []


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
    parser.add_argument("--fresh", action="store_true", help="each step on a new file system of its own (root: mkfs.ext4, mount -o loop)")
    args = parser.parse_args()
    if args.fresh and os.geteuid() != 0:
        sys.exit("--fresh makes and mounts file systems: run it as root")
    if not os.access(args.shelf, os.X_OK):
        sys.exit(f"{args.shelf} is missing: swift build -c release --product shelf")
    work = tempfile.mkdtemp(prefix="shelf-write-bench-", dir=args.dir)
    floor = os.path.join(work, "write-floor")
    subprocess.run(["cc", "-O2", "-o", floor, os.path.join(ROOT, "scripts", "write-floor.c")], check=True)
    rows = []
    binaries = [("", args.shelf)] + ([("before-", args.before)] if args.before else [])
    size = None
    systems = FreshFileSystems(work, args.count) if args.fresh else None
    def folder(name):
        return systems.folder(name) if systems else os.path.join(work, name)
    try:
        for round in range(1, args.rounds + 1):
            row = {}
            # What the exports copy, written before the timed steps, so that no step needs
            # another and each can take any place in the round.
            source = folder(f"source-{round}")
            subprocess.run([args.shelf, "generate", "--data", source, "--count", str(args.count)], check=True, stdout=subprocess.DEVNULL)
            # Each step writes into a folder of its own (with --fresh a file system of its own,
            # made just before the step and removed once it is timed): the step, its folder's
            # name, and its command given that folder.
            steps = [("floor", f"floor-{round}", None)]
            for name, shelf in binaries:
                steps.append((name + "generate", f"{name}generated-{round}",
                              lambda target, shelf=shelf: [shelf, "generate", "--data", target, "--count", str(args.count)]))
                steps.append((name + "export", f"{name}export-{round}",
                              lambda target, shelf=shelf: [shelf, "export", "--data", source, "--to", target]))
            # What runs later in a round is slower (by a quarter on this machine, whatever it
            # is): each round's order is the last one's turned by one, so every step takes every
            # place in turn and the means compare like with like (rounds a multiple of the
            # steps' number: 3, or 5 with --before).
            shift = (round - 1) % len(steps)
            steps = steps[shift:] + steps[:shift]
            for key, target_name, command in steps:
                if command is None:
                    if size is None:
                        size = books_size(work, args.shelf)
                    command = lambda target: [floor, target, str(args.count), "500", str(size)]
                target = folder(target_name)
                os.sync()  # no step pays for the writeback of the one before
                row[key] = timed(command(target))
                if systems:
                    systems.release(target)
            if systems:
                systems.close()
            rows.append({key: row[key] for key in ["floor"] + [name + step for name, _ in binaries for step in ("generate", "export")]})
            print(f"round {round}: " + ", ".join(f"{key} {value:.2f} s" for key, value in row.items()), file=sys.stderr, flush=True)
    finally:
        if systems:
            systems.close()
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
    # Every step took every place equally often: their means are the fair comparison.
    line("mean", {key: statistics.mean(row[key] for row in rows) for key in columns})


if __name__ == "__main__":
    main()
