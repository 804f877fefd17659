#!/usr/bin/env python3
"""Runs the official Python client's own system tests (google-cloud-firestore's `tests/system`,
from its source distribution on PyPI) against Google's Firestore emulator and against `shelf
serve` on a folder and on PostgreSQL, all three at once, and compares them test by test.

A test that passes on the emulator and fails on Shelf fails this script (the list is printed),
unless it is in EXPECTED_FAILURES below with the reason. Tests that fail on the emulator too
are listed and ignored: the emulator is the oracle, and where it fails there is nothing to match.

    python scripts/python-system-tests.py                # emulator, folder, PostgreSQL
    python scripts/python-system-tests.py --no-postgres  # emulator and folder only
    python scripts/python-system-tests.py -k aggregation # pytest's -k, for one kind of test

Run it with .build-venv's Python (the client's version there is the one whose tests run), after
`swift build`. The source distribution is cached in .build/python-system; none of its code is
in this repository. Exits 0 with a message, without running anything, where Google's emulator
(`gcloud emulators firestore`) is not installed.
"""
import argparse
import importlib.metadata
import os
import pathlib
import queue
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree

import pg_cluster
import servers

ROOT = pathlib.Path(__file__).resolve().parent.parent
CACHE = ROOT / ".build" / "python-system"
SUITES = ["test_system.py", "test_system_async.py"]

# What its tests need beyond the client: pytest-asyncio 0.21 (the async suite overrides the
# `event_loop` fixture, which later versions dropped), pytest-subtests (its `subtests` fixture,
# built into pytest only from 9), test_utils (google-cloud-testutils), mock; pytest-timeout so
# that a test that hangs fails alone instead of holding CI.
TEST_REQUIREMENTS = ["pytest>=8,<9", "pytest-asyncio==0.21.2", "pytest-subtests<0.16", "pytest-timeout",
                     "mock", "google-cloud-testutils"]

# Tests that pass on the emulator and still fail on Shelf, each with why; CI passes with them,
# and each line goes when its fix lands (the script says so when one passes). Written as the
# test's file and name; a name without its [parameters] stands for each of them.
# Tests that pass on the emulator and are known to fail on Shelf, each with its reason: none now.
EXPECTED_FAILURES: dict[str, str] = {}


def system_tests():
    """The client's tests/system, from the source distribution of the installed version."""
    version = importlib.metadata.version("google-cloud-firestore")
    folder = CACHE / f"google_cloud_firestore-{version}"
    if not (folder / "tests" / "system" / SUITES[0]).exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        archive = CACHE / f"google_cloud_firestore-{version}.tar.gz"
        if not archive.exists():
            subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                            "--no-binary", ":all:", "--no-deps", f"google-cloud-firestore=={version}",
                            "-d", str(CACHE)], check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(CACHE, filter="data")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *TEST_REQUIREMENTS],
                   check=True)
    return folder / "tests" / "system"


def run_suite(name, tests, address, report, extra):
    """Runs the suites with pytest against `address`; the outcome of each test, read from its
    JUnit report: passed, failed or skipped (a test whose teardown fails has failed)."""
    environment = dict(os.environ, FIRESTORE_EMULATOR_HOST=address, GCLOUD_PROJECT=f"shelf-system-{name}")
    log = report.with_suffix(".log")
    with open(log, "w") as out:
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout=120",
                        f"--junitxml={report}", *extra, *SUITES], cwd=tests, env=environment, stdout=out,
                       stderr=subprocess.STDOUT)
    outcomes = {}
    if not report.exists():
        raise SystemExit(f"pytest wrote no report against {name}: see {log}")
    for case in ElementTree.parse(report).iter("testcase"):
        test = f"{case.get('file') or case.get('classname').split('.')[-1] + '.py'}::{case.get('name')}"
        test = test.split("/")[-1]
        tags = {child.tag for child in case}
        outcome = "failed" if tags & {"failure", "error"} else "skipped" if "skipped" in tags else "passed"
        if outcomes.get(test) != "failed":
            outcomes[test] = outcome
    return outcomes, log


def expected_reason(test):
    return EXPECTED_FAILURES.get(test) or EXPECTED_FAILURES.get(test.split("[")[0])


def compare(oracle, name, outcomes):
    """Prints how Shelf's run differs from the emulator's; the number of tests that fail it."""
    regressions, expected, now_passing = [], [], []
    for test, outcome in sorted(oracle.items()):
        if outcome != "passed":
            continue
        mine = outcomes.get(test, "missing")
        reason = expected_reason(test)
        if mine != "passed" and reason:
            expected.append((test, reason))
        elif mine != "passed":
            regressions.append((test, mine))
        elif reason:
            now_passing.append(test)
    passed = sum(1 for test, outcome in oracle.items() if outcome == "passed" and outcomes.get(test) == "passed")
    print(f"{name}: {passed} of the emulator's {sum(1 for o in oracle.values() if o == 'passed')} passing tests pass; "
          f"{len(expected)} expected failures, {len(regressions)} unexpected", flush=True)
    for test, reason in expected:
        print(f"  expected failure  {test}  ({reason})")
    for test in now_passing:
        print(f"  now passes        {test}  (remove it from EXPECTED_FAILURES)")
    for test, outcome in regressions:
        print(f"  FAILS on Shelf    {test}  ({outcome}; passes on the emulator)")
    return len(regressions)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shelf", default=str(ROOT / ".build/debug/shelf"), help="the shelf executable (default: %(default)s)")
    parser.add_argument("--no-postgres", action="store_true", help="leave out `shelf serve` on PostgreSQL")
    parser.add_argument("-k", metavar="EXPRESSION", help="only the tests pytest's -k selects")
    arguments = parser.parse_args()
    if not shutil.which("gcloud") or subprocess.run(["gcloud", "emulators", "firestore", "--help"],
                                                    capture_output=True).returncode != 0:
        print("python system tests: skipped, Google's Firestore emulator (gcloud emulators firestore) is not installed")
        return 0
    if not os.access(arguments.shelf, os.X_OK):
        raise SystemExit(f"{arguments.shelf} is not an executable: run `swift build` first, or give --shelf")
    started = time.monotonic()
    tests = system_tests()
    extra = ["-k", arguments.k] if arguments.k else []
    work = pathlib.Path(tempfile.mkdtemp(prefix="shelf-python-system-"))
    stops = []
    try:
        try:
            emulator = servers.emulator()
        except servers.EmulatorMissing as missing:
            print(f"python system tests: skipped, gcloud has no Firestore emulator installed:\n{missing}")
            return 0
        stops.append(emulator.stop)
        targets = {"emulator": emulator.address}
        folder_server = servers.shelf(arguments.shelf, str(work / "data"), log=open(work / "folder-server.log", "w"))
        stops.append(folder_server.stop)
        targets["folder"] = folder_server.address
        if not arguments.no_postgres:
            cluster = pg_cluster.Cluster(kept=postgres_folder())
            stops.append(cluster.stop)
            postgres_server = servers.shelf(arguments.shelf, cluster.url, log=open(work / "postgres-server.log", "w"))
            stops.append(postgres_server.stop)
            targets["postgres"] = postgres_server.address
        results = queue.Queue()
        threads = [threading.Thread(target=lambda name=name, address=address: results.put(
            (name, run_suite(name, tests, address, work / f"{name}.xml", extra)))) for name, address in targets.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        runs = dict(results.get() for _ in threads)
    finally:
        for stop in reversed(stops):
            stop()
    oracle, _ = runs.pop("emulator")
    failing_on_emulator = sorted(test for test, outcome in oracle.items() if outcome == "failed")
    print(f"the emulator: {sum(1 for o in oracle.values() if o == 'passed')} passed, "
          f"{len(failing_on_emulator)} failed (ignored), {sum(1 for o in oracle.values() if o == 'skipped')} skipped")
    for test in failing_on_emulator:
        print(f"  fails on the emulator too (ignored)  {test}")
    unexpected = 0
    for name, (outcomes, log) in runs.items():
        failures = compare(oracle, f"shelf serve on {'a folder' if name == 'folder' else 'PostgreSQL'}", outcomes)
        if failures:
            print(f"  pytest's log: {log}")
        unexpected += failures
    print(f"python system tests: {time.monotonic() - started:.0f} s")
    if unexpected:
        print(f"{unexpected} tests pass on Google's emulator and fail on shelf serve", file=sys.stderr)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


def postgres_folder():
    """Where the cluster goes: in CI's SHELF_POSTGRES_CLUSTERS (which .ci/run stops whatever
    happens), else a temporary folder that `stop` removes."""
    clusters = os.environ.get("SHELF_POSTGRES_CLUSTERS")
    return os.path.join(clusters, "python-system") if clusters else None


if __name__ == "__main__":
    sys.exit(main())
