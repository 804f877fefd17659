#!/usr/bin/env python3
"""The app at any size, side by side with visidata: one table for a folder and for PostgreSQL.

    swift build -c release --product shelf
    python3 scripts/size-bench.py [--folder 100000,1000000] [--postgres 1000000] [--repeats 1] [--cold]

For each size it writes the books with `shelf generate` (in batches; kept between runs: a
folder's under .build-compare/sizes/, PostgreSQL's in a database of a cluster kept under
.build-compare/postgres/, or of --url, topped up to the size when it holds fewer), writes the
same books as JSON lines for visidata (from the folder, or from the database when no folder of
that size is there), and starts the real binaries in a 100x30 pseudo-terminal (compare.py's
sessions, pyte in its virtual environment):

  first rows       spawn until a book row is on screen
  fully loaded     Shelf: its `loaded books` timing line; visidata: its status line shows every row
  peak memory      VmHWM once fully loaded
  sort key         Shelf: `s`, `S`, `s` once loaded, each from the key written to the end of the
                   frame that shows it (SHELF_TIMINGS frames, CLOCK_MONOTONIC), and to the screen
                   with no row still being read (a window of a query draws those as …)
  filter key       Shelf: `/` then "river 9", each key the same way, the rows read once every
                   row is matched (no "Filtering" on the status line: on a folder the first word
                   makes every row's search text); then VmHWM again
  filterable       fully loaded, then the first word matched in every row: the issue's "fully
                   sortable and filterable", against visidata's load
  live change      Shelf, once loaded: another client changes the author of the book in the first
                   row (PostgreSQL: an UPDATE from a psql kept open; a folder: its file rewritten
                   and renamed into place, as an editor saves), five times; from the write to the
                   screen showing the new author. The author is put back afterwards.

On a folder the first start opens it without a snapshot file (Shelf's cache, kept here under
.build-compare/snapshots/ and emptied first) and writes one, which the later starts read: the
table gives the first open a row of its own ("folder, first open") and the later starts
theirs ("folder").

visidata reads the same books as JSON lines; on a folder each start of Shelf is followed by one
of visidata. The ratios are Shelf's median over visidata's (below 1: Shelf is faster or
smaller). With --cold (as root), each start of Shelf on a folder follows
`echo 3 > /proc/sys/vm/drop_caches`, as after a boot. Ten million books take about 25 minutes
to write the first time (and visidata some 10 GiB to read them); later runs find them there:

    python3 scripts/size-bench.py --folder 100000,1000000 --postgres 1000000,10000000

With --serve, each PostgreSQL size has a row more: the app as a client of `shelf serve` on the
same database (firestore://), another client's changes still made with psql, and its filter
`pages>400` (Firestore's protocol has no text search, so the words are refused there).
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402
from pg_cluster import Cluster, psql, tool  # noqa: E402
import servers  # noqa: E402

CACHE = os.path.join(compare.WORK, "sizes")
# The PostgreSQL cluster whose databases (books_1000000, …) hold the generated books between runs.
POSTGRES = os.path.join(compare.WORK, "postgres")
# Shelf's cache folder for these runs ($XDG_CACHE_HOME), where its collection snapshot files go.
SNAPSHOTS = os.path.join(compare.WORK, "snapshots")


def sizes(text):
    return [int(s.replace("_", "").replace(",", "")) for s in text.split(",") if s.strip()] if text else []


def seeded_folder(shelf, count):
    """A folder of `count` generated books and its JSON lines, made once and kept."""
    folder = os.path.join(CACHE, f"folder-{count}")
    jsonl = os.path.join(CACHE, f"books-{count}.jsonl")
    books = os.path.join(folder, "books")
    if not (os.path.isdir(books) and sum(1 for n in os.listdir(books) if n.endswith(".json")) == count):
        compare.log(f"writing {count:,} books into {folder} with shelf generate")
        compare.log(f"  written in {compare.generate(shelf, folder, count):.0f} s")
    if not os.path.exists(jsonl):
        compare.log(f"converting them to JSON lines for visidata")
        compare.convert(folder, jsonl)
    return folder, jsonl


def seeded_database(shelf, url, count):
    """The database at `url` holding `count` generated books (topped up with shelf generate when it
    holds fewer), and a file of the same books as JSON lines for visidata (the folder's when there
    is one: generate numbers and makes books the same way on every store)."""
    try:
        there = int(psql(url, "SELECT count(*) FROM shelf_documents WHERE parent = 'books'")[0])
    except subprocess.CalledProcessError:
        there = 0  # no table yet: a new database
    if there > count:
        raise SystemExit(f"size-bench: {url.rsplit('@', 1)[-1]} holds {there:,} books, more than {count:,}")
    if there < count:
        compare.log(f"writing {count - there:,} books into PostgreSQL with shelf generate ({there:,} there)")
        started = time.monotonic()
        subprocess.run([shelf, "generate", "--data", url, "--count", str(count - there)], check=True, stdout=subprocess.DEVNULL)
        compare.log(f"  written in {time.monotonic() - started:.0f} s")
    jsonl = os.path.join(CACHE, f"books-{count}.jsonl")
    if not os.path.exists(jsonl):
        compare.log(f"writing them as JSON lines for visidata")
        # The id first, as the folder's conversion writes it; jsonb's text of the fields after it.
        statement = ("SELECT '{\"id\": ' || to_json(substr(path, 7))::text || ', ' || substr(fields::text, 2)"
                     " FROM shelf_documents WHERE parent = 'books' ORDER BY path")
        with open(jsonl + ".partial", "w") as out:
            psql(url, statement, out=out)
        os.rename(jsonl + ".partial", jsonl)
    return jsonl


def rows_read(lines):
    """The list shows its rows, none still on its way (a window of a query draws those as …,
    and says "Loading" until counted), or that nothing matches (or why the filter is refused:
    a word, over `firestore://`)."""
    body = lines[1:-1]
    if any(UNREAD.match(line) or "│Loading " in line or "│Sorting " in line for line in body):
        return False
    return compare.has_book_row(lines) or any("Nothing matches" in line or "│The filter " in line for line in body)


UNREAD = re.compile(r"^│\s+…\s")
# The detail pane's header: the selected document's path.
SELECTED_PATH = re.compile(r"┌ books/([^ ─]+) ─")


def filtered(lines):
    """The rows read and every row matched: the status line no longer says "Filtering"."""
    return rows_read(lines) and not any("Filtering " in line for line in lines)


def key_latencies(session, keys, pause, done=rows_read):
    """Milliseconds from each key written to the end of the frame that shows it, and to the
    screen that is `done` (its rows all read; the same on a list held whole)."""
    frames, rows = [], []
    for key in keys:
        sent = time.monotonic()
        os.write(session.fd, key.encode())
        frames.append(compare.key_to_frame(session, sent))
        session.drain(0.01)
        session.wait(done, 120, "the rows after a key")
        rows.append((time.monotonic() - sent) * 1000)
        session.drain(pause)
    return frames, rows


class FolderWriter:
    """Another program writing a folder's book files: each write a whole file renamed into place."""

    def __init__(self, folder):
        self.books = os.path.join(folder, "books")

    def __enter__(self):
        self.originals = {}
        return self

    def set_author(self, book_id, title, author):
        path = os.path.join(self.books, book_id + ".json")
        with open(path, "rb") as f:
            original = f.read()
        fields = json.loads(original)
        if fields.get("title") != title:
            raise SystemExit(f"size-bench: {path} holds {fields.get('title')!r}, not the row's {title!r}")
        self.originals.setdefault(path, original)
        fields["author"] = author
        self.replace(path, json.dumps(fields).encode())

    def replace(self, path, data):
        temporary = os.path.join(self.books, ".size-bench-change")  # not a .json: no document of its own
        with open(temporary, "wb") as f:
            f.write(data)
        os.rename(temporary, path)

    def __exit__(self, *_):
        for path, original in self.originals.items():
            self.replace(path, original)


class PostgresWriter:
    """Another client of the database: one psql kept open, each write an UPDATE of one row."""

    def __init__(self, url):
        self.url = url

    def __enter__(self):
        self.psql = subprocess.Popen([tool("psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", self.url],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.originals = {}
        self.query("SELECT 1")  # connected before the first write is timed
        return self

    def query(self, statement):
        """Runs `statement` and returns its one line of output."""
        self.psql.stdin.write(statement + ";\n")
        self.psql.stdin.flush()
        line = self.psql.stdout.readline()
        if not line:
            raise SystemExit(f"size-bench: psql ended at {statement!r}")
        return line.rstrip("\n")

    def set_author(self, book_id, title, author):
        path = "books/" + book_id
        if path not in self.originals:  # one line whether or not the row is there
            self.originals[path] = self.query(f"SELECT coalesce((SELECT fields -> 'author' FROM shelf_documents"
                                              f" WHERE path = {literal(path)} AND fields ->> 'title' = {literal(title)})::text, '')")
        if not self.originals[path]:
            raise SystemExit(f"size-bench: no {path} titled {title!r} in the database")
        self.update(path, f"to_jsonb({literal(author)}::text)")

    def update(self, path, value):
        updated = self.query(f"WITH row AS (UPDATE shelf_documents SET fields = jsonb_set(fields, '{{author}}', {value}),"
                             f" update_time = clock_timestamp() WHERE path = {literal(path)} RETURNING 1) SELECT count(*) FROM row")
        if updated != "1":
            raise SystemExit(f"size-bench: {path} was not updated ({updated!r})")

    def __exit__(self, *_):
        for path, original in self.originals.items():
            self.update(path, literal(original) + "::jsonb")
        self.psql.stdin.close()
        self.psql.wait()


def literal(text):
    return "'" + text.replace("'", "''") + "'"


def live_changes(session, writer, count=5):
    """Milliseconds from another client's write of the first row's author to the screen showing it.
    The first row is the one selected at the start: its detail pane is headed by its path."""
    lines = session.lines()
    title = next(m.group(0) for m in map(compare.TITLE.search, lines[1:-1]) if m)
    selected = SELECTED_PATH.search(lines[1])
    if not selected:
        raise SystemExit("size-bench: no books/<id> heads the detail pane:\n" + "\n".join(lines))
    book_id = selected.group(1)
    latencies = []
    with writer:
        for n in range(1, count + 1):
            author = f"Changed {n}"  # within the Author column's narrowest width
            sent = time.monotonic()
            writer.set_author(book_id, title, author)
            session.wait(lambda lines: any(author in line for line in lines[1:-1]), 30, f"'{author}' on screen")
            latencies.append((time.monotonic() - sent) * 1000)
            session.drain(0.3)
    return latencies


def drop_page_cache():
    """Empties the kernel's page cache (root only), so the next start reads from the disk."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


class Served:
    """`shelf serve` on `data` on a free port of 127.0.0.1, for as long as the `with` lasts; `url`
    is the firestore:// address of its project "demo"."""

    def __init__(self, shelf, data):
        self.shelf, self.data = shelf, data

    def __enter__(self):
        self.server = servers.shelf(self.shelf, self.data)
        self.url = f"firestore://{self.server.address}/demo"
        return self

    def __exit__(self, *_):
        self.server.stop()


def merged(runs):
    """Each figure of several runs (tuples of `compare.Figure`), as one figure of all their values."""
    return tuple(compare.Figure([v for run in runs for v in run[i].values], runs[0][i].unit) for i in range(len(runs[0])))


def shelf_run(shelf, data, repeats, writer, cold=False, keys=True, filter_text="river 9"):
    """First rows, fully loaded, peak memory over `repeats` starts; live changes by `writer`, sort
    and filter keys (`filter_text` typed after `/`) on the last (unless not `keys`). `cold`: each
    start just after the page cache is dropped."""
    timings = os.path.join(compare.WORK, "size-timings.log")
    visible, loaded, memory, changes, sorts, filters = [], [], [], [], ([], []), ([], [])
    peak_filtered = None  # VmHWM once filtered: the search texts made
    for attempt in range(repeats):
        if cold:
            drop_page_cache()
        environment = {"SHELF_TIMINGS": timings, "SWIFT_BACKTRACE": "interactive=no", "XDG_CACHE_HOME": SNAPSHOTS}
        session = compare.Session([shelf, "--data", data], environment, timings)
        try:
            visible.append(session.wait(compare.has_book_row, 300, "a book row"))
            loaded.append(session.wait_loaded_log("books", 1800))
            session.drain(0.3)
            memory.append(session.status("VmHWM"))
            if keys and attempt == repeats - 1:
                changes = live_changes(session, writer)
                compare.log(f"  live changes: {', '.join(f'{ms:.0f}' for ms in changes)} ms")
                sorts = key_latencies(session, ["s", "S", "s"], 0.5)
                filters = key_latencies(session, ["/"] + list(filter_text), 0.2, done=filtered)
                peak_filtered = session.status("VmHWM")
                compare.log(f"  keys: sort {keys_text(sorts)}, filter {keys_text(filters)}, then peak {peak_filtered / 1048576:.0f} MiB")
                os.write(session.fd, b"\x1b")
        finally:
            session.stop()
        compare.log(f"  shelf run {attempt + 1}: first rows {visible[-1]:.2f} s, loaded {loaded[-1]:.2f} s, peak {memory[-1] / 1048576:.0f} MiB")
    return compare.Figure(visible), compare.Figure(loaded), compare.Figure(memory, "B"), changes, sorts, (filters, peak_filtered)


def keys_text(latencies):
    """"frame median / slowest, rows read median / slowest" in ms."""
    frames, rows = latencies
    if not frames:
        return "n/a"
    return f"{statistics.median(frames):.0f} / {max(frames):.0f}; rows {statistics.median(rows):.0f} / {max(rows):.0f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", default="100000,1000000", help="folder sizes, comma-separated (default 100000,1000000)")
    parser.add_argument("--postgres", default="1000000", help="PostgreSQL sizes (default 1000000; '' for none)")
    parser.add_argument("--url", help="a database of your own (postgresql://…) for the one PostgreSQL size; default: a throwaway cluster")
    parser.add_argument("--repeats", type=int, default=1, help="starts of each app; medians printed (default 1)")
    parser.add_argument("--serve", action="store_true",
                        help="also the app as a client of `shelf serve` on each PostgreSQL database (firestore://; its filter is pages>400)")
    parser.add_argument("--skip-peers", action="store_true", help="no visidata")
    parser.add_argument("--cold", action="store_true", help="each start of Shelf on a folder just after the page cache is dropped (root)")
    parser.add_argument("--binary", default=os.path.join(compare.ROOT, ".build", "release", "shelf"))
    args = parser.parse_args()
    if args.url and len(sizes(args.postgres)) != 1:
        parser.error("--url takes one PostgreSQL size")
    if args.cold and os.geteuid() != 0:
        parser.error("--cold drops the page cache, which only root may do")
    compare.run_in_venv(__file__, args.skip_peers)
    compare.require_release_binary(args.binary, "size-bench")
    os.makedirs(CACHE, exist_ok=True)
    began = time.monotonic()
    rows, jsonl_of = [], {}
    peers = {}
    for count in sizes(args.folder):
        folder, jsonl = seeded_folder(args.binary, count)
        jsonl_of[count] = jsonl
        # Each start of Shelf is followed by one of visidata, so a noisy spell of this shared
        # machine weighs on both rather than on one app's starts.
        runs, peer_runs = [], []
        shutil.rmtree(SNAPSHOTS, ignore_errors=True)
        for attempt in range(args.repeats):
            compare.log(f"Shelf on a folder of {count:,} books, start {attempt + 1} of {args.repeats}")
            runs.append(shelf_run(args.binary, folder, 1, FolderWriter(folder), args.cold, keys=attempt == args.repeats - 1))
            if not args.skip_peers:
                compare.log(f"visidata on the same {count:,} books as JSON lines, start {attempt + 1} of {args.repeats}")
                peer_runs.append(compare.visidata_ui(jsonl, count, 1, 0, 0)[:3])
        place = "folder" + (", cold" if args.cold else "")
        rows.append((place + ", first open", count) + runs[0][:3] + (runs[0][3:] if len(runs) == 1 else ([], ([], []), (([], []), None))))
        if len(runs) > 1:
            rows.append((place, count) + merged([run[:3] for run in runs[1:]]) + runs[-1][3:])
        if peer_runs:
            peers[count] = merged(peer_runs)
    cluster = None
    try:
        for count in sizes(args.postgres):
            if args.url:
                url = args.url
            else:
                cluster = cluster or Cluster(kept=POSTGRES)
                url = cluster.database(f"books_{count}")
            jsonl = seeded_database(args.binary, url, count)
            jsonl_of.setdefault(count, jsonl)
            compare.log(f"Shelf on PostgreSQL with {count:,} books")
            rows.append(("PostgreSQL", count) + shelf_run(args.binary, url, args.repeats, PostgresWriter(url)))
            if args.serve:
                with Served(args.binary, url) as served:
                    compare.log(f"Shelf as a client of shelf serve ({served.url}) on PostgreSQL with {count:,} books")
                    # Firestore's protocol has no text search: a comparison is the query's filter.
                    rows.append(("firestore:// (shelf serve on PostgreSQL)", count)
                                + shelf_run(args.binary, served.url, args.repeats, PostgresWriter(url), filter_text="pages>400"))
    finally:
        if cluster:
            cluster.stop()
    if not args.skip_peers:
        for count in sorted({row[1] for row in rows} - set(peers)):
            jsonl = jsonl_of.get(count)
            if jsonl:
                compare.log(f"visidata on the same {count:,} books as JSON lines")
                visible, loaded, memory, _, _ = compare.visidata_ui(jsonl, count, args.repeats, 0, 0)
                peers[count] = (visible, loaded, memory)
    print()
    print(f"Shelf at any size, and visidata on the same books (JSON lines); machine: {compare.machine()}")
    print(f"medians of {args.repeats} start(s); live changes (median / slowest) and keys, once loaded: keys to the frame"
          " showing the key, then to the screen whose rows are all read")
    print()
    print("| store | books | first rows | fully loaded | peak memory | live change | sort key | filter key |"
          " visidata: first rows | loaded | memory | loaded ÷ visidata | filterable ÷ visidata | memory ÷ visidata |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for place, count, visible, loaded, memory, changes, sorts, filters in rows:
        peer = peers.get(count)
        filters, peak_filtered = filters
        filter_cell = keys_text(filters) + (f"; peak then {peak_filtered / 1048576:.0f} MiB" if peak_filtered else "")
        change_cell = f"{statistics.median(changes):.0f} / {max(changes):.0f} ms" if changes else "n/a"
        cells = [place, f"{count:,}", visible.show(), loaded.show(), memory.show(), change_cell, keys_text(sorts), filter_cell]
        # The first word's key ("r", after "/"): from then every row is matched as typed.
        filterable = compare.Figure([loaded.median + filters[1][1] / 1000]) if filters[1] and loaded.values else compare.na("no keys")
        if peer:
            cells += [peer[0].show(), peer[1].show(), peer[2].show(), compare.ratio(loaded, peer[1]),
                      compare.ratio(filterable, peer[1]), compare.ratio(memory, peer[2])]
        else:
            cells += ["", "", "", "", "", ""]
        print("| " + " | ".join(cells) + " |")
    print()
    print(f"The whole run took {time.monotonic() - began:.0f} s.")


if __name__ == "__main__":
    main()
