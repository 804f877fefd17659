#!/usr/bin/env python3
"""Google's Firestore emulator as the oracle: the same seeded random operations sent to a fresh
emulator and a fresh `shelf serve`, every answer compared.

    python scripts/differential.py [--seed N] [--operations 2000]        # shelf serve on a fresh folder
    python scripts/differential.py --postgres auto                       # ... on a throwaway PostgreSQL cluster
    python scripts/differential.py --postgres URL                        # ... on this (empty) database

Operations (scripts/differential_ops.py): writes of every kind (set, merge, update, delete,
every field transform, preconditions) alone, in batches and in transactions; queries with every
operator, composite AND/OR filters, orders, cursors, limits, offsets, projections, collection
groups (sent as raw `RunQuery` through the client's generated stubs, so the client checks
nothing first); the same through the client's own API for `limit_to_last`; aggregations; gets,
batch gets, listings; listeners (the sequence of changes each sees). Documents are compared
with their types (an integer stays an integer, -0.0 and NaN as such), in order; errors by their
status and, for queries and aggregations, by their message, which Firestore's clients show.

Normalised, because they must differ: times (create, update and read times; a field written by
a server-time transform, always `st`, compares as "server time"), transaction ids. A run
starts both servers empty, under one project id, and keeps their data identical: every write is
sent to both. A difference prints the seed, the operation's number and the operation; for a
query, the smallest part of it that still differs. Exit status 1 on any difference not listed in
KNOWN or SKIPPED below.

Run it with /work/main/.build-venv's Python (google-cloud-firestore), after `swift build`; needs
`gcloud emulators firestore` (it says so and exits 0 when that is not installed).
"""
import argparse, collections, json, math, os, pathlib, queue, random, shutil, subprocess, sys, tempfile, time

import differential_ops as ops

import servers

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROJECT = "shelf-differential"
DATABASE = f"projects/{PROJECT}/databases/(default)"

# Differences that are the emulator's own bugs (Firestore's documentation says otherwise): kind ->
# reason and source, each also in docs/DIFFERENCES.md when there is one. None found so far. (The
# emulator lists the distinct inequality fields of a query with more than ten in its hash order:
# that list is compared as a set, see normalised_message, rather than listed here.)
KNOWN = {}

# Kinds fixed by other work in progress: counted and reported, not failed on, until it lands.
# None now (reads at a past read_time and aggregations over limits and offsets have landed).
SKIPPED = {}


def client(address):
    """A client of the server at `address`, set up as for the emulator."""
    os.environ["FIRESTORE_EMULATOR_HOST"] = address
    from google.cloud import firestore
    return firestore.Client(project=PROJECT)


# MARK: Answers in a form both servers' can be compared in

def value(v):
    """A `Value` (protobuf) as a comparable tuple that keeps its type."""
    kind = v.WhichOneof("value_type")
    if kind == "double_value":
        d = v.double_value
        return ("double", "NaN" if math.isnan(d) else repr(d))
    if kind == "map_value":
        return ("map", tuple(sorted((k, value(x)) for k, x in v.map_value.fields.items())))
    if kind == "array_value":
        return ("array", tuple(value(x) for x in v.array_value.values))
    if kind == "timestamp_value":
        return ("timestamp", v.timestamp_value.seconds, v.timestamp_value.nanos)
    if kind == "geo_point_value":
        return ("geo", v.geo_point_value.latitude, v.geo_point_value.longitude)
    if kind == "reference_value":
        return ("reference", v.reference_value.split("/documents/", 1)[-1])
    if kind == "null_value":
        return ("null",)
    return (kind.replace("_value", ""), getattr(v, kind))


def document(d):
    """A `Document` (protobuf): its path and typed fields; a server-time field as such."""
    fields = {}
    for name, v in d.fields.items():
        fields[name] = ("server time",) if name == "st" and v.WhichOneof("value_type") == "timestamp_value" else value(v)
    return (d.name.split("/documents/", 1)[-1], tuple(sorted(fields.items())))


def error(e):
    """An RPC's failure: its status and message (the client's exceptions carry both)."""
    code = getattr(e, "grpc_status_code", None) or getattr(e, "code", None)
    return ("error", getattr(code, "name", str(code)), getattr(e, "message", str(e)))


def answer(call):
    try:
        return call()
    except Exception as e:  # noqa: BLE001 - a refusal is an answer to compare
        if type(e).__name__ in ("ValueError", "TypeError", "AttributeError", "KeyError"):
            raise
        return error(e)


# MARK: Operations, each run on both servers

class Side:
    """One server and its clients."""

    def __init__(self, name, address):
        self.name = name
        self.db = client(address)
        self.api = self.db._firestore_api

    def run_query(self, query, transaction=None):
        request = {"parent": f"{DATABASE}/documents", "structured_query": query}
        if transaction:
            request["transaction"] = transaction
        return tuple(document(r._pb.document) for r in self.api.run_query(request=request) if r._pb.HasField("document"))

    def aggregate(self, aggregation):
        request = {"parent": f"{DATABASE}/documents", "structured_aggregation_query": aggregation}
        results = [r._pb.result for r in self.api.run_aggregation_query(request=request) if r._pb.HasField("result")]
        return tuple(tuple(sorted((k, value(v)) for k, v in r.aggregate_fields.items())) for r in results)

    def commit(self, writes, transaction=None):
        request = {"database": DATABASE, "writes": writes}
        if transaction:
            request["transaction"] = transaction
        response = self.api.commit(request=request)._pb
        # Each write's result: the values of its transforms (a server time as such).
        return tuple(tuple(("server time",) if v.WhichOneof("value_type") == "timestamp_value" else value(v) for v in r.transform_results)
                     for r in response.write_results)

    def batch_get(self, paths, transaction=None):
        request = {"database": DATABASE, "documents": [f"{DATABASE}/documents/{p}" for p in paths]}
        if transaction:
            request["transaction"] = transaction
        out = []
        for r in self.api.batch_get_documents(request=request):
            r = r._pb
            out.append(document(r.found) if r.HasField("found") else ("missing", r.missing.split("/documents/", 1)[-1]))
        return tuple(out)


def status_only(result):
    """A refusal by its status alone, for what clients show only by its status (writes, gets)."""
    return result[:2] if isinstance(result, tuple) and result[:1] == ("error",) else result


def normalised_message(message):
    """The emulator lists a query's inequality fields in its own hash order: as a set."""
    if "distinct inequality fields: [" in message:
        head, rest = message.split("[", 1)
        fields, tail = rest.split("]", 1)
        return head + "[" + ", ".join(sorted(fields.split(", "))) + "]" + tail
    return message


def same(a, b, with_message):
    if isinstance(a, tuple) and a[:1] == ("error",) and isinstance(b, tuple) and b[:1] == ("error",):
        return a[1] == b[1] and (not with_message or normalised_message(a[2]) == normalised_message(b[2]))
    return a == b


class Run:
    def __init__(self, seed, emulator, shelf, show=25):
        self.show = show
        self.rng = random.Random(seed)
        self.seed = seed
        self.values = ops.Values(self.rng, DATABASE)
        self.queries = ops.Queries(self.rng, self.values)
        self.sides = (emulator, shelf)
        self.counts = collections.Counter()
        self.differences = collections.Counter()
        self.known = collections.Counter()
        self.seconds = collections.Counter()
        self.skipped = collections.Counter()
        self.number = 0
        # The moment each operation started, both servers idle (`read_time`).
        self.marks = []
        self.shown = 0

    def both(self, call):
        return tuple(answer(lambda: call(side)) for side in self.sides)

    def compare(self, kind, operation, call, with_message=False, shrink=None, skip=None):
        self.counts[kind] += 1
        began = time.monotonic()
        expected, actual = self.both(call)
        self.seconds[kind] += time.monotonic() - began
        if same(expected, actual, with_message):
            return expected, actual
        if skip:
            self.skipped[skip] += 1
            return expected, actual
        self.differences[kind] += 1
        if self.shown < self.show:
            self.shown += 1
            smallest = shrink(operation) if shrink else operation
            print(f"DIFFERENT  {kind} #{self.number} (--seed {self.seed}):\n  operation {json.dumps(smallest, default=repr)}\n"
                  f"  emulator  {expected}\n  shelf     {actual}", flush=True)
        return expected, actual

    # The operations

    def seed_documents(self):
        writes = [{"update": {"name": f"{DATABASE}/documents/{ops.COLLECTION}/{i}", "fields": self.values.fields()}} for i in ops.IDS]
        writes += [{"update": {"name": f"{DATABASE}/documents/{ops.COLLECTION}/{i}/{ops.GROUP}/{j}", "fields": self.values.fields()}}
                   for i in ops.IDS[:4] for j in ops.IDS[:3]]
        self.compare("write", writes, lambda side: side.commit(writes))

    def query(self):
        query = self.queries.query()
        self.compare("query", query, lambda side: side.run_query(query), with_message=True, shrink=self.shrink)

    def shrink(self, query):
        """The smallest part of `query` that still answers differently: parts dropped one at a
        time while the difference stays."""
        def differs(q):
            a, b = self.both(lambda side: side.run_query(q))
            return not same(a, b, True)
        changed = True
        while changed:
            changed = False
            for key in [k for k in query if k != "from_"]:
                smaller = {k: v for k, v in query.items() if k != key}
                if differs(smaller):
                    query, changed = smaller, True
                    break
            where = query.get("where", {}).get("composite_filter")
            if not changed and where and len(where["filters"]) > 1:
                for i in range(len(where["filters"])):
                    filters = where["filters"][:i] + where["filters"][i + 1:]
                    smaller = dict(query, where={"composite_filter": dict(where, filters=filters)})
                    if differs(smaller):
                        query, changed = smaller, True
                        break
        return query

    def aggregation(self):
        aggregation = self.queries.aggregation()
        self.compare("aggregation", aggregation, lambda side: side.aggregate(aggregation), with_message=True)

    def write(self):
        writes = [ops.write(self.rng, self.values, DATABASE) for _ in range(1 if self.rng.random() < 0.7 else self.rng.randint(2, 4))]
        self.compare("write" if len(writes) == 1 else "batch write", writes, lambda side: side.commit(writes))

    def transaction(self):
        """Begin, read a document and a query in it, then commit writes (or roll back)."""
        paths = [f"{ops.COLLECTION}/{self.rng.choice(ops.IDS)}" for _ in range(2)]
        query = self.queries.query()
        writes = [ops.write(self.rng, self.values, DATABASE) for _ in range(self.rng.randint(1, 3))]
        rollback = self.rng.random() < 0.2

        def run(side):
            tid = side.api.begin_transaction(request={"database": DATABASE}).transaction
            read = status_only(answer(lambda: side.batch_get(paths, tid)))
            queried = answer(lambda: side.run_query(query, tid))
            committed = "rolled back" if rollback else status_only(answer(lambda: side.commit(writes, tid)))
            if rollback or committed[:1] == ("error",):
                # As a client does when its transaction fails: let go of what it holds.
                answer(lambda: side.api.rollback(request={"database": DATABASE, "transaction": tid}))
            return read, queried, committed
        self.compare("transaction", {"reads": paths, "query": query, "writes": writes, "rollback": rollback}, run)

    def gets(self):
        paths = [f"{ops.COLLECTION}/{self.rng.choice(ops.IDS)}" for _ in range(self.rng.randint(1, 4))]
        self.compare("batch get", paths, lambda side: side.batch_get(paths))

    def listing(self):
        def run(side):
            documents = tuple(d.id for d in side.db.collection(ops.COLLECTION).list_documents(page_size=7))
            collections_ = tuple(c.id for c in side.db.collections())
            under = tuple(c.id for c in side.db.document(f"{ops.COLLECTION}/{ops.IDS[0]}").collections())
            return documents, collections_, under
        self.compare("listing", "list_documents, collections", run)

    def client_query(self):
        """Through the client's own API: `limit_to_last` (the client reverses the orders and
        the results) and a collection group query."""
        from google.cloud.firestore_v1 import FieldFilter
        field = self.rng.choice(["b", "a"])
        limit = self.rng.randint(1, 5)
        descending = self.rng.random() < 0.5
        bound = self.rng.randint(-2, 4)

        def run(side):
            q = side.db.collection(ops.COLLECTION).where(filter=FieldFilter("b", ">=", bound)).order_by(field, direction="DESCENDING" if descending else "ASCENDING")
            last = tuple(document(to_pb(s)) for s in q.limit_to_last(limit).get())
            group = tuple(s.reference.path for s in side.db.collection_group(ops.GROUP).order_by(field).limit(limit).get())
            return last, group
        self.compare("client query", {"field": field, "limit_to_last": limit, "descending": descending, "b >=": bound}, run)

    def listen(self):
        """A listener on a random query: the changes of its first snapshot, then of one after
        each of three writes to both servers (waiting for each side to catch up)."""
        from google.cloud.firestore_v1 import FieldFilter
        bound = self.rng.randint(-2, 4)
        limit = self.rng.choice([None, 3])
        writes = [[ops.write(self.rng, self.values, DATABASE)] for _ in range(3)]
        events = [queue.Queue(), queue.Queue()]
        watches = []
        for side, events_ in zip(self.sides, events):
            q = side.db.collection(ops.COLLECTION).where(filter=FieldFilter("b", ">=", bound)).order_by("b")
            if limit:
                q = q.limit(limit)

            def on(snapshot, changes, read_time, events_=events_):
                events_.put(tuple((c.type.name, c.document.id, c.old_index, c.new_index) for c in changes))
            watches.append(q.on_snapshot(on))
        try:
            seen = [[], []]
            for step in [None] + writes:
                if step:
                    self.counts["write"] += 1
                    for side in self.sides:
                        answer(lambda: side.commit(step))
                for i, events_ in enumerate(events):
                    try:
                        seen[i].append(events_.get(timeout=10 if step is None else 2))
                    except queue.Empty:
                        seen[i].append("no snapshot")
        finally:
            for watch in watches:
                watch.unsubscribe()
        self.counts["listen"] += 1
        if seen[0] != seen[1]:
            self.differences["listen"] += 1
            print(f"DIFFERENT  listen #{self.number} (--seed {self.seed}):\n  b >= {bound} limit {limit}, writes {writes}\n"
                  f"  emulator  {seen[0]}\n  shelf     {seen[1]}", flush=True)

    def read_time(self):
        """A query at a past read time: a moment between two earlier operations, when both
        servers had answered every operation before it and started none after (a time on the
        clock would fall between one server's write and the other's)."""
        query = self.queries.query()
        mark = self.marks[max(0, len(self.marks) - 1 - self.rng.randint(1, 50))]
        past = {"seconds": mark // 1_000_000_000, "nanos": mark % 1_000_000_000}

        def run(side):
            request = {"parent": f"{DATABASE}/documents", "structured_query": query, "read_time": past}
            return tuple(document(r._pb.document) for r in side.api.run_query(request=request) if r._pb.HasField("document"))
        self.compare("read_time", query, run, with_message=True)

    def step(self):
        self.number += 1
        self.marks.append(time.time_ns() // 1000 * 1000)
        roll = self.rng.random()
        if roll < 0.42:
            self.query()
        elif roll < 0.57:
            self.write()
        elif roll < 0.69:
            self.aggregation()
        elif roll < 0.76:
            self.transaction()
        elif roll < 0.83:
            self.gets()
        elif roll < 0.87:
            self.client_query()
        elif roll < 0.90:
            self.listing()
        elif roll < 0.93:
            self.read_time()
        elif roll < 0.94:
            self.listen()
        else:
            self.query()


def to_pb(snapshot):
    """A client snapshot as a `Document` protobuf (for `document`)."""
    from google.cloud.firestore_v1 import _helpers
    from google.cloud.firestore_v1.types import Document
    return Document(name=snapshot.reference._document_path, fields=_helpers.encode_dict(snapshot.to_dict()))._pb


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, help="the random seed (default: a new one, printed)")
    parser.add_argument("--operations", type=int, default=2000, help="how many operations (default %(default)s)")
    parser.add_argument("--postgres", metavar="URL", help="serve this empty PostgreSQL database, or `auto`: a throwaway cluster")
    parser.add_argument("--show", type=int, default=25, help="how many differences to print in full (default %(default)s)")
    parser.add_argument("--shelf", default=str(ROOT / ".build/debug/shelf"), help="the shelf executable (default: %(default)s)")
    arguments = parser.parse_args()
    if not shutil.which("gcloud") or subprocess.run(["gcloud", "components", "list", "--only-local-state", "--format=value(id)"],
                                                     capture_output=True, text=True).stdout.find("cloud-firestore-emulator") < 0:
        print("differential: skipped: Google's Firestore emulator is not installed (gcloud components install cloud-firestore-emulator)")
        return
    if not os.access(arguments.shelf, os.X_OK):
        raise SystemExit(f"{arguments.shelf} is not an executable: run `swift build` first, or give --shelf")
    seed = arguments.seed if arguments.seed is not None else random.randrange(2**31)
    cluster, folder, started_servers = None, None, []
    try:
        if arguments.postgres == "auto":
            import pg_cluster
            cluster = pg_cluster.Cluster()
            data = cluster.url
        elif arguments.postgres:
            data = arguments.postgres
        else:
            data = folder = tempfile.mkdtemp(prefix="shelf-differential-")
        backend = "PostgreSQL" if arguments.postgres else "a folder"
        print(f"differential: seed {seed}, {arguments.operations} operations, shelf serve on {backend}", flush=True)
        emulator = servers.emulator()
        started_servers.append(emulator)
        shelf = servers.shelf(arguments.shelf, data)
        started_servers.append(shelf)
        run = Run(seed, Side("emulator", emulator.address), Side("shelf", shelf.address), arguments.show)
        started = time.monotonic()
        run.seed_documents()
        while run.number < arguments.operations:
            run.step()
        total = sum(run.counts.values())
        print(f"differential ({backend}, seed {seed}): {total} operations in {time.monotonic() - started:.0f} s: "
              + ", ".join(f"{k} {v}" for k, v in sorted(run.counts.items())))
        print("  seconds by kind: " + ", ".join(f"{k} {v:.0f}" for k, v in run.seconds.most_common()))
        for title, counter in (("known differences (the emulator's)", run.known), ("skipped (being fixed elsewhere)", run.skipped)):
            if counter:
                print(f"  {title}: " + ", ".join(f"{k} {v}" for k, v in sorted(counter.items())))
        different = sum(run.differences.values())
        print(f"  differences: {different}" + (": " + ", ".join(f"{k} {v}" for k, v in sorted(run.differences.items())) if different else ""))
        sys.exit(1 if different else 0)
    finally:
        for server in reversed(started_servers):
            server.stop()
        if cluster:
            cluster.stop()
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
