#!/usr/bin/env python3
"""Transactions under contention, as an app meets them: P processes of the official Python
client each increment one counter N times, each increment a `@firestore.transactional` read
and update (the client tries each 5 times), against `shelf serve` on a fresh folder and,
beside it in the same run, Google's Firestore emulator; with --postgres also two `shelf serve`
processes on one PostgreSQL database (a throwaway cluster, scripts/pg_cluster.py), the clients
split between them, which must wait for each other's transactions through PostgreSQL's locks.
Prints, for each, the increments committed and failed, the counter at the end and the time
taken. docs/FIGURES.md quotes it.

    python3 -m venv .build-venv && .build-venv/bin/pip install 'google-cloud-firestore>=2.20,<3'
    swift build -c release --product shelf
    .build-venv/bin/python scripts/contention-bench.py [--processes 8] [--increments 100] [--emulator-increments 5] [--postgres]

The emulator's transactions read with shared locks and wait 2 s for a lock before aborting:
two that read the counter then wait for each other until one is aborted, so its run takes
about 10 s an increment that fails; --emulator-increments keeps it short.
"""
import argparse
import collections
import multiprocessing
import os
import shutil
import sys
import tempfile
import time

import servers


def increments(args):
    address, count = args
    os.environ["FIRESTORE_EMULATOR_HOST"] = address
    from google.cloud import firestore
    db = firestore.Client(project="contention")
    counter = db.document("counters/shared")

    @firestore.transactional
    def increment(transaction):
        snapshot = counter.get(transaction=transaction)
        transaction.update(counter, {"n": snapshot.get("n") + 1})

    committed, failures = 0, collections.Counter()
    for _ in range(count):
        try:
            increment(db.transaction())
            committed += 1
        except Exception as error:  # the client's own error after its attempts, as an app sees it
            failures[f"{type(error).__name__}: {str(error)[:120]}"] += 1
    return committed, failures


def run(addresses, processes, count):
    """The clients' processes, each on one of `addresses` in turn."""
    address = addresses[0]
    os.environ["FIRESTORE_EMULATOR_HOST"] = address
    from google.cloud import firestore
    db = firestore.Client(project="contention")
    db.document("counters/shared").set({"n": 0})
    started = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        results = pool.map(increments, [(addresses[i % len(addresses)], count) for i in range(processes)])
    seconds = time.monotonic() - started
    failures = collections.Counter()
    for _, failed in results:
        failures.update(failed)
    return sum(r[0] for r in results), failures, db.document("counters/shared").get().get("n"), seconds


def serve(shelf, data, count):
    """`count` shelf serve processes on `data`."""
    return [servers.shelf(shelf, data) for _ in range(count)]


def stop(started):
    for server in started:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shelf", default=".build/release/shelf")
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--increments", type=int, default=100, help="each process's, against shelf serve")
    parser.add_argument("--emulator-increments", type=int, default=5, help="each process's, against the emulator (0: no emulator)")
    parser.add_argument("--postgres", action="store_true", help="also two shelf serve processes on one PostgreSQL database")
    options = parser.parse_args()

    rows = []
    folder = tempfile.mkdtemp(prefix="shelf-contention-")
    started = serve(options.shelf, folder, 1)
    try:
        rows.append(("shelf serve (folder)", options.increments, *run([s.address for s in started], options.processes, options.increments)))
    finally:
        stop(started)
        shutil.rmtree(folder, ignore_errors=True)
    if options.postgres:
        import pg_cluster
        cluster = pg_cluster.Cluster()  # started
        try:
            started = serve(options.shelf, cluster.url, 2)
            try:
                rows.append(("two shelf serve (one PostgreSQL database)", options.increments,
                             *run([s.address for s in started], options.processes, options.increments)))
            finally:
                stop(started)
        finally:
            cluster.stop()
    if options.emulator_increments > 0 and shutil.which("gcloud"):
        emulator = servers.emulator()
        try:
            rows.append(("Google's emulator", options.emulator_increments, *run([emulator.address], options.processes, options.emulator_increments)))
        finally:
            emulator.stop()
    elif options.emulator_increments > 0:
        print("gcloud is not installed: the emulator's row is left out", file=sys.stderr)

    print(f"| server | {options.processes} processes × increments | committed | failed | counter | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, count, committed, failures, counter, seconds in rows:
        print(f"| {name} | {count} | {committed} | {sum(failures.values())} | {counter} | {seconds:.1f} |")
    for name, _, _, failures, _, _ in rows:
        for failure, times in failures.items():
            print(f"  {name}: {times} × {failure}")


if __name__ == "__main__":
    main()
