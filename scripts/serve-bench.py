#!/usr/bin/env python3
"""Figures for `shelf serve`, measured as an app meets it: through the official Python client
(google-cloud-firestore) over loopback, against a folder and, given --postgres, a PostgreSQL
database. Prints one table; docs/FIGURES.md quotes it.

    python3 -m venv .build-venv && .build-venv/bin/pip install 'google-cloud-firestore>=2.20,<3'
    swift build -c release --product shelf
    .build-venv/bin/python scripts/serve-bench.py --postgres postgresql://u:p@127.0.0.1:5432/db [--million]

What it measures, each against a fresh server on an empty store:
  bulk writer   N books written through BulkWriter (BatchWrite), documents a second, with the
                client's own throttle lifted (by default it sends at most 500 writes a second,
                whatever the server can take); with the CPU time the server and the client
                spent, since on a small machine the client is often the limit
  disk floor    (folder) the same number of files written as the bulk writer's batches are,
                20 files then a sync, by scripts/write-floor.c: the disk's own limit
  get           one document by id (median of 300, random ids)
  page of 20    a query ordered by a field, limit 20 (median of 20)
  filtered      a query whose filter matches about a tenth, all results streamed
  whole         every document of the collection streamed by one query
  count         a count aggregation over the collection
  listeners     a write through the server seen by 100 on_snapshot listeners of the document
                (latency from the write's call to each callback: median and slowest), with the
                CPU time the server and the client spent per write
--million adds, on PostgreSQL, a page of 20 from 1,000,000 books.
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import servers

GENRES = ["fiction", "poetry", "history", "science", "travel", "drama", "essays", "children", "crime", "art"]


def client_for(address):
    from google.cloud import firestore
    os.environ["FIRESTORE_EMULATOR_HOST"] = address
    return firestore.Client(project="bench")


def book(number):
    return {"title": f"Book {number:07d}", "author": f"Author {number % 5000}",
            "pages": 50 + (number * 7919) % 950, "genre": GENRES[number % len(GENRES)],
            "year": 1800 + number % 225}


def bulk_write(db, collection, start, count):
    from google.cloud.firestore_v1.bulk_writer import BulkWriterOptions
    unthrottled = 1_000_000_000
    writer = db.bulk_writer(options=BulkWriterOptions(initial_ops_per_second=unthrottled, max_ops_per_second=unthrottled))
    began = time.perf_counter()
    for number in range(start, start + count):
        writer.set(db.collection(collection).document(f"b{number:07d}"), book(number))
    writer.close()
    return time.perf_counter() - began


def cpu_seconds(pid):
    """The user and system CPU time a process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured_bulk_write(db, server, collection, start, count):
    """The bulk writer's row: documents a second and the CPU each side spent."""
    server_before, client_before = cpu_seconds(server.pid), time.process_time()
    seconds = bulk_write(db, collection, start, count)
    server_cpu, client_cpu = cpu_seconds(server.pid) - server_before, time.process_time() - client_before
    return (f"{count:,} books in {seconds:.1f} s: {count / seconds:,.0f} documents/s "
            f"(CPU: server {server_cpu:.1f} s, client {client_cpu:.1f} s)")


def disk_floor(count):
    """Documents a second the disk allows when every 20 files are made durable together."""
    compiler = shutil.which("cc")
    if not compiler:
        return None
    work = tempfile.mkdtemp(prefix="write-floor-")
    try:
        binary = os.path.join(work, "write-floor")
        subprocess.run([compiler, "-O2", "-o", binary, os.path.join(os.path.dirname(__file__), "write-floor.c")], check=True)
        output = subprocess.run([binary, os.path.join(work, "files"), str(count), "20", "150"],
                                check=True, capture_output=True, text=True).stdout
        seconds = float(output.rsplit(": ", 1)[1].split()[0])
        return f"{count:,} files of 150 bytes, a sync every 20, in {seconds:.1f} s: {count / seconds:,.0f} files/s"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def median_ms(samples):
    return statistics.median(samples) * 1000


def timed(action, times):
    samples = []
    for _ in range(times):
        began = time.perf_counter()
        action()
        samples.append(time.perf_counter() - began)
    return samples


def listeners_latency(db, server, count=100, writes=10):
    """Seconds from a write's call to each of `count` listeners' callbacks, over `writes` writes,
    and the CPU seconds the server and this client spent per write meanwhile."""
    reference = db.collection("watched").document("one")
    reference.set({"n": 0})
    lock = threading.Lock()
    seen = {}  # write number -> callback times

    def on_snapshot(snapshots, changes, read_time):
        now = time.perf_counter()
        n = snapshots[0].get("n") if snapshots and snapshots[0].exists else None
        with lock:
            seen.setdefault(n, []).append(now)

    def wait_for(n):
        deadline = time.time() + 10
        while time.time() < deadline:
            with lock:
                if len(seen.get(n, [])) >= count:
                    return
            time.sleep(0.001)

    watches = [reference.on_snapshot(on_snapshot) for _ in range(count)]
    wait_for(0)
    server_before, client_before = cpu_seconds(server.pid), time.process_time()
    latencies = []
    for n in range(1, writes + 1):
        began = time.perf_counter()
        reference.set({"n": n})
        wait_for(n)
        with lock:
            latencies += [t - began for t in seen.get(n, [])]
            missing = count - len(seen.get(n, []))
        if missing:
            print(f"  write {n}: {missing} listeners saw nothing within 10 s", file=sys.stderr)
    server_cpu, client_cpu = (cpu_seconds(server.pid) - server_before) / writes, (time.process_time() - client_before) / writes
    for watch in watches:
        watch.unsubscribe()
    return latencies, server_cpu, client_cpu


def measure(name, shelf, data, documents, million):
    server = servers.shelf(shelf, data)
    process, address = server.process, server.address
    rows = []
    try:
        db = client_for(address)
        rows.append(("bulk writer", measured_bulk_write(db, process, "books", 0, documents)))
        floor = disk_floor(documents) if not data.startswith("postgres") else None
        if floor:
            rows.append(("disk floor", floor))
        books = db.collection("books")
        ids = [f"b{random.randrange(documents):07d}" for _ in range(300)]
        samples = [s for s in timed(lambda: books.document(ids.pop()).get(), 300)]
        rows.append(("get", f"{median_ms(samples):.2f} ms median of 300"))
        page = books.order_by("title").limit(20)
        rows.append((f"page of 20 of {documents:,}", f"{median_ms(timed(lambda: list(page.stream()), 20)):.1f} ms median of 20 (order_by title)"))
        last = books.order_by("title", direction="DESCENDING").limit(20)
        rows.append((f"last page of 20 of {documents:,}", f"{median_ms(timed(lambda: list(last.stream()), 20)):.1f} ms median of 20 (order_by title desc)"))
        matched = []
        filtered = books.where("genre", "==", "poetry")
        rows.append(("filtered (1 in 10)", f"{median_ms(timed(lambda: matched.append(len(list(filtered.stream()))), 5)):.0f} ms median of 5, {matched[-1]:,} documents"))
        whole = []
        rows.append((f"whole collection", f"{median_ms(timed(lambda: whole.append(len(list(books.stream()))), 3)):.0f} ms median of 3, {whole[-1]:,} documents"))
        counted = []
        rows.append(("count", f"{median_ms(timed(lambda: counted.append(books.count().get()[0][0].value), 5)):.0f} ms median of 5 ({counted[-1]:,})"))
        latencies, server_cpu, client_cpu = listeners_latency(db, process)
        if latencies:
            rows.append(("write seen by 100 listeners", f"median {median_ms(latencies):.1f} ms, slowest {max(latencies) * 1000:.1f} ms ({len(latencies)} deliveries; "
                                                        f"CPU a write: server {server_cpu * 1000:.1f} ms, client {client_cpu * 1000:.1f} ms)"))
        if million:
            more = 1_000_000 - documents
            rows.append(("bulk writer, more", measured_bulk_write(db, process, "books", documents, more)))
            rows.append(("page of 20 of 1,000,000", f"{median_ms(timed(lambda: list(page.stream()), 20)):.1f} ms median of 20 (order_by title)"))
            rows.append(("get of 1,000,000", f"{median_ms(timed(lambda: books.document(f'b{random.randrange(1_000_000):07d}').get(), 300)):.2f} ms median of 300"))
    finally:
        server.stop()
    print(f"\n{name}")
    for label, figure in rows:
        print(f"  {label:<32} {figure}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shelf", default=".build/release/shelf", help="the shelf binary (default: the release build)")
    parser.add_argument("--postgres", help="an empty PostgreSQL database's URL, to measure that backend too")
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--million", action="store_true", help="also a page of 20 from 1,000,000 books on PostgreSQL")
    arguments = parser.parse_args()
    if not os.access(arguments.shelf, os.X_OK):
        sys.exit(f"{arguments.shelf} is not an executable: build it with `swift build -c release --product shelf` or give --shelf")
    print(f"shelf serve, through google-cloud-firestore over loopback, {os.cpu_count()} cores")
    folder = tempfile.mkdtemp(prefix="serve-bench-")
    try:
        measure(f"folder ({folder})", arguments.shelf, folder, arguments.documents, False)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if arguments.postgres:
        measure("PostgreSQL", arguments.shelf, arguments.postgres, arguments.documents, arguments.million)


if __name__ == "__main__":
    main()
