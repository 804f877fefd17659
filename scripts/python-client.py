#!/usr/bin/env python3
"""Drives a fresh `shelf serve` through the official Python client (google-cloud-firestore from
PyPI, and firebase-admin, which wraps it), set up as for Google's emulator
(FIRESTORE_EMULATOR_HOST), through every method the server has: documents and every field
transform, every value type, every query form, aggregations, transactions (one retried after
the server answers ABORTED), batches, the bulk writer, collections(), list_documents,
recursive_delete, get_all, on_snapshot on a document and on a query, named databases.

Each check prints one line; the script exits 1 if the client and Shelf disagree on any.

    python scripts/python-client.py                       # on a fresh folder
    python scripts/python-client.py --postgres URL        # on an empty PostgreSQL database

Run it with a Python that has google-cloud-firestore and firebase-admin (.ci/run makes one in
.build-venv), after `swift build` (it runs .build/debug/shelf unless --shelf names another).
"""
import argparse
import datetime
import math
import os
import pathlib
import queue
import shutil
import sys
import tempfile
import threading
import time
import traceback

import servers

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROJECT = "shelf-python-client"


class Checks:
    """Counts and prints each check; a section that raises counts as one failure."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.section = ""

    def equal(self, what, actual, expected):
        if actual == expected:
            self.ok(what)
        else:
            self.fail(what, f"got {actual!r}, expected {expected!r}")

    def true(self, what, condition, detail=""):
        if condition:
            self.ok(what)
        else:
            self.fail(what, detail or "not so")

    def raises(self, what, exception_type, call):
        try:
            call()
        except exception_type as error:
            self.ok(f"{what} ({type(error).__name__})")
            return error
        except Exception as error:  # noqa: BLE001 - any other error is a disagreement
            self.fail(what, f"raised {type(error).__name__}: {error}, expected {exception_type.__name__}")
            return None
        self.fail(what, f"no error, expected {exception_type.__name__}")
        return None

    def ok(self, what):
        self.passed += 1
        print(f"ok    {self.section}: {what}", flush=True)

    def fail(self, what, detail):
        self.failed += 1
        print(f"FAIL  {self.section}: {what}: {detail}", flush=True)

    def run(self, name, body, *args):
        self.section = name
        try:
            body(self, *args)
        except Exception as error:  # noqa: BLE001 - reported, and the next section still runs
            here = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == __file__]
            line = here[1].lineno if len(here) > 1 else "?"
            self.fail("section stopped", f"{type(error).__name__}: {error} (line {line})")


# MARK: Documents and transforms

def documents(check, db):
    from google.api_core import exceptions
    from google.cloud import firestore

    ref = db.collection("books").document("dune")
    result = ref.set({"title": "Dune", "pages": 412, "cover": {"small": "s"}})
    check.true("set answers with an update time", result.update_time is not None)
    snapshot = ref.get()
    check.equal("get after set", snapshot.to_dict(), {"title": "Dune", "pages": 412, "cover": {"small": "s"}})
    check.true("a document has its create and update times", snapshot.create_time is not None and snapshot.update_time is not None)
    check.true("its read time is set", snapshot.read_time is not None)
    error = check.raises("create on an existing document", exceptions.AlreadyExists, lambda: ref.create({"title": "again"}))
    check.true("ALREADY_EXISTS says Document already exists", error is not None and "Document already exists" in str(error), str(error))
    error = check.raises("update of a missing document", exceptions.NotFound, lambda: db.document("books/missing").update({"x": 1}))
    check.true("NOT_FOUND says No document to update", error is not None and "No document to update" in str(error), str(error))
    check.equal("a missing document reads as missing", db.document("books/missing").get().exists, False)

    ref.set({"year": 1965, "cover": {"large": "l"}}, merge=True)
    check.equal("set with merge keeps the rest, deeply", ref.get().to_dict(),
                {"title": "Dune", "pages": 412, "year": 1965, "cover": {"small": "s", "large": "l"}})
    ref.set({"cover": {"small": "S", "large": "dropped"}, "title": "dropped"}, merge=["cover.small"])
    check.equal("set with merge fields changes only those", ref.get().to_dict(),
                {"title": "Dune", "pages": 412, "year": 1965, "cover": {"small": "S", "large": "l"}})
    ref.update({"cover.large": "L", "pages": firestore.DELETE_FIELD, "`a.b`": 1})
    check.equal("update with dotted paths and DELETE_FIELD", ref.get().to_dict(),
                {"title": "Dune", "year": 1965, "cover": {"small": "S", "large": "L"}, "a.b": 1})


def update_times(check, db):
    from google.api_core import exceptions

    ref = db.document("books/dune")
    snapshot = ref.get()
    check.equal("reading again gives the same update time", ref.get().update_time, snapshot.update_time)
    before = snapshot.update_time
    check.raises("update with a stale last_update_time", exceptions.FailedPrecondition,
                 lambda: ref.update({"year": 1}, option=db.write_option(last_update_time=before - datetime.timedelta(seconds=5))))
    ref.update({"year": 1966}, option=db.write_option(last_update_time=before))
    check.equal("update with the current last_update_time", ref.get().get("year"), 1966)
    check.true("an update moves the update time on", ref.get().update_time > before)
    check.equal("an update keeps the create time", ref.get().create_time, snapshot.create_time)
    result = ref.update({"year": 1965})
    check.equal("a write answers with the update time the document then has", ref.get().update_time, result.update_time)


def more_documents(check, db):
    from google.api_core import exceptions

    _, added = db.collection("books").add({"title": "Emma"})
    check.true("add makes a 20-character id", len(added.id) == 20, added.id)
    check.equal("add's document reads back", added.get().get("title"), "Emma")
    added.delete()
    check.equal("delete removes it", added.get().exists, False)
    db.document("books/never").delete()
    check.ok("delete of a missing document succeeds")
    check.raises("delete with exists=True of a missing document", exceptions.NotFound,
                 lambda: db.document("books/never").delete(option=db.write_option(exists=True)))


def transforms(check, db):
    from google.cloud import firestore

    ref = db.document("counters/a")
    ref.set({"n": 5, "f": 1.5, "hi": 3, "lo": 3, "mixed": 2, "tags": [1, "x", 2.5], "at": None})
    ref.update({
        "n": firestore.Increment(2), "f": firestore.Increment(1), "mixed": firestore.Increment(0.5),
        "fresh": firestore.Increment(3), "hi": firestore.Maximum(10), "lo": firestore.Minimum(-1.5),
        "at": firestore.SERVER_TIMESTAMP, "tags": firestore.ArrayUnion([1.0, 2, "x", "y", 2.5]),
    })
    read = ref.get().to_dict()
    check.equal("increment of an integer by an integer stays an integer", (read["n"], type(read["n"])), (7, int))
    check.equal("increment of a double", read["f"], 2.5)
    check.equal("increment of an integer by a double is a double", (read["mixed"], type(read["mixed"])), (2.5, float))
    check.equal("increment of a missing field sets the operand", read["fresh"], 3)
    check.equal("maximum", read["hi"], 10)
    check.equal("minimum with a double", read["lo"], -1.5)
    now = datetime.datetime.now(datetime.timezone.utc)
    check.true("server timestamp is the server's now", isinstance(read["at"], datetime.datetime) and abs((read["at"] - now).total_seconds()) < 60, repr(read["at"]))
    check.equal("array union compares numbers by value (1.0 is 1)", read["tags"], [1, "x", 2.5, 2, "y"])
    ref.update({"tags": firestore.ArrayRemove([1.0, "y", 2.5])})
    check.equal("array remove compares numbers by value", ref.get().get("tags"), ["x", 2])
    ref.update({"hi": firestore.Maximum(10.0), "lo": firestore.Minimum(-1.5)})
    read = ref.get().to_dict()
    check.equal("maximum of equal values keeps the stored one", (read["hi"], type(read["hi"])), (10, int))
    ref.set({"created": firestore.SERVER_TIMESTAMP, "list": firestore.ArrayUnion(["a"]), "count": firestore.Increment(1)})
    read = ref.get().to_dict()
    check.equal("transforms in a set apply to the new document", (read["list"], read["count"], isinstance(read["created"], datetime.datetime)), (["a"], 1, True))
    db.document("counters/b").set({"count": firestore.Increment(4)}, merge=True)
    check.equal("a transform in a merge on a missing document", db.document("counters/b").get().to_dict(), {"count": 4})


def values(check, db):
    from google.cloud import firestore
    from google.cloud.firestore_v1.base_query import FieldFilter
    from google.api_core.datetime_helpers import DatetimeWithNanoseconds

    when = DatetimeWithNanoseconds(2024, 2, 29, 23, 59, 58, nanosecond=123456789, tzinfo=datetime.timezone.utc)
    sample = {
        "null": None, "true": True, "false": False, "int_max": 2 ** 63 - 1, "int_min": -(2 ** 63), "zero": 0,
        "double": 1.5, "one_double": 1.0, "tiny": 5e-324, "big": 1.7976931348623157e308,
        "nan": math.nan, "inf": math.inf, "minus_inf": -math.inf, "minus_zero": -0.0,
        "timestamp": when, "before_1970": DatetimeWithNanoseconds(1900, 1, 1, tzinfo=datetime.timezone.utc),
        "string": "héllo wörld 🌍 日本語 \u200b", "empty": "", "nul": "a\u0000b", "bytes": b"\x00\x01\xfe\xff", "empty_bytes": b"",
        "ref": db.document("books/dune"), "deep_ref": db.document("a/b/c/d"), "geo": firestore.GeoPoint(48.8584, -2.2945),
        "array": [1, "two", 3.0, None, {"m": [True]}, b"\x01", firestore.GeoPoint(1, 2)], "empty_array": [],
        "map": {"a": {"b": {"c": [1, 2], "d": None}}}, "empty_map": {}, "dotted.key": 1, "ünïcödé key": 2, "`backtick`": 3,
    }
    ref = db.document("values/all")
    ref.set(sample)
    read = ref.get().to_dict()
    check.equal("every field comes back", sorted(read), sorted(sample))
    for name, expected in sample.items():
        actual = read.get(name)
        if isinstance(expected, float) and math.isnan(expected):
            check.true(f"{name} round trip", isinstance(actual, float) and math.isnan(actual), repr(actual))
        elif isinstance(expected, float):
            check.equal(f"{name} round trip", (type(actual), actual, math.copysign(1, actual) if isinstance(actual, float) else None),
                        (float, expected, math.copysign(1, expected)))
        elif name in ("ref", "deep_ref"):
            check.equal(f"{name} round trip", getattr(actual, "path", actual), expected.path)
        elif name in ("timestamp", "before_1970"):
            # Firestore keeps microseconds, dropping the rest.
            check.equal(f"{name} round trip to the microsecond", (actual.timestamp_pb().seconds, actual.timestamp_pb().nanos),
                        (expected.timestamp_pb().seconds, expected.timestamp_pb().nanos // 1000 * 1000))
        else:
            check.equal(f"{name} round trip", (type(actual), actual), (type(expected), expected))
    db.document("values/nul-after").set({"nul": "a\u0001"})
    db.document("values/nul-before").set({"nul": "a"})
    check.equal("strings with U+0000 and U+0001 order by code point", [s.get("nul") for s in db.collection("values").order_by("nul").get()],
                ["a", "a\u0000b", "a\u0001"])
    check.equal("a filter on a string with U+0000", ids(db.collection("values").where(filter=FieldFilter("nul", "==", "a\u0000b"))), ["all"])
    check.equal("a range on strings with U+0000", ids(db.collection("values").where(filter=FieldFilter("nul", ">", "a\u0000"))), ["all", "nul-after"])
    check.equal("a document id with unicode", (db.document("values/日本 é").set({"x": 1}) and db.document("values/日本 é").get().to_dict()), {"x": 1})


# MARK: Queries and aggregations

CITIES = {
    "a": {"name": "Ann Arbor", "state": "MI", "pop": 120, "score": 1, "tags": ["college", "lake"], "capital": False},
    "b": {"name": "Boston", "state": "MA", "pop": 650, "score": 2.5, "tags": ["college", "coast"], "capital": True},
    "c": {"name": "Chicago", "state": "IL", "pop": 2700, "score": 3, "tags": ["lake", "big"], "capital": False},
    "d": {"name": "Denver", "state": "CO", "pop": 710, "score": 4.0, "tags": ["mountain"], "capital": True},
    "e": {"name": "El Paso", "state": "TX", "pop": 680, "score": 5, "tags": [], "capital": False},
    "f": {"name": "Fresno", "pop": 540, "score": 6.5, "tags": ["valley"], "capital": False},
}


def seed_cities(db):
    batch = db.batch()
    for id, fields in CITIES.items():
        batch.set(db.document("cities", id), fields)
    batch.set(db.document("cities/a/landmarks/l1"), {"type": "museum"})
    batch.set(db.document("cities/b/landmarks/l2"), {"type": "park"})
    batch.set(db.document("other/x/landmarks/l3"), {"type": "museum"})
    batch.set(db.document("odd/null"), {"x": None})
    batch.set(db.document("odd/nan"), {"x": math.nan})
    batch.set(db.document("odd/one"), {"x": 1})
    batch.commit()


def ids(query):
    return [snapshot.id for snapshot in query.get()]


def queries(check, db):
    from google.cloud import firestore
    from google.cloud.firestore_v1.base_query import FieldFilter, Or, And
    from google.cloud.firestore_v1.field_path import FieldPath

    cities = db.collection("cities")
    where = lambda field, op, value: cities.where(filter=FieldFilter(field, op, value))  # noqa: E731
    check.equal("==", ids(where("state", "==", "MA")), ["b"])
    check.equal("!= (ordered by the field, missing fields left out)", ids(where("state", "!=", "MA")), ["d", "c", "a", "e"])
    check.equal("<", ids(where("pop", "<", 650)), ["a", "f"])
    check.equal("<=", ids(where("pop", "<=", 650)), ["a", "f", "b"])
    check.equal(">", ids(where("pop", ">", 700)), ["d", "c"])
    check.equal(">=", ids(where("pop", ">=", 680)), ["e", "d", "c"])
    check.equal("== an integer matches the equal double", ids(where("score", "==", 4)), ["d"])
    check.equal("in", ids(where("score", "in", [1.0, 3, 6.5])), ["a", "c", "f"])
    check.equal("not-in", ids(where("state", "not-in", ["MA", "TX"])), ["d", "c", "a"])
    check.equal("array-contains", ids(where("tags", "array_contains", "lake")), ["a", "c"])
    check.equal("array-contains-any", ids(where("tags", "array_contains_any", ["coast", "mountain"])), ["b", "d"])
    check.equal("Or", ids(cities.where(filter=Or([FieldFilter("state", "==", "MA"), FieldFilter("pop", ">", 2000)]))), ["b", "c"])
    check.equal("And", ids(cities.where(filter=And([FieldFilter("capital", "==", False), FieldFilter("pop", "<", 1000)]))), ["a", "f", "e"])
    check.equal("Or of And", ids(cities.where(filter=Or([And([FieldFilter("capital", "==", True), FieldFilter("pop", ">", 700)]),
                                                         FieldFilter("state", "==", "MI")]))), ["a", "d"])
    check.equal("two where clauses", ids(cities.where(filter=FieldFilter("capital", "==", False)).where(filter=FieldFilter("score", ">", 2))), ["c", "e", "f"])
    check.equal("__name__ in references", ids(where(FieldPath.document_id(), "in", [cities.document("c"), cities.document("a")])), ["a", "c"])
    check.equal("__name__ > a reference", ids(where(FieldPath.document_id(), ">", cities.document("d"))), ["e", "f"])
    odd = db.collection("odd")
    check.equal("== None (IS_NULL)", ids(odd.where(filter=FieldFilter("x", "==", None))), ["null"])
    check.equal("== NaN (IS_NAN)", ids(odd.where(filter=FieldFilter("x", "==", math.nan))), ["nan"])
    check.equal("!= None (IS_NOT_NULL)", ids(odd.where(filter=FieldFilter("x", "!=", None))), ["nan", "one"])

    by_pop = cities.order_by("pop")
    check.equal("order by ascending", ids(by_pop), ["a", "f", "b", "e", "d", "c"])
    check.equal("order by descending", ids(cities.order_by("pop", direction=firestore.Query.DESCENDING)), ["c", "d", "e", "b", "f", "a"])
    check.equal("order by mixed integers and doubles", ids(cities.order_by("score")), ["a", "b", "c", "d", "e", "f"])
    check.equal("order by leaves out documents without the field", ids(cities.order_by("state")), ["d", "c", "b", "a", "e"])
    check.equal("two orders", ids(cities.order_by("capital").order_by("pop", direction=firestore.Query.DESCENDING)), ["c", "e", "f", "a", "d", "b"])
    check.equal("start_at values", ids(by_pop.start_at({"pop": 650})), ["b", "e", "d", "c"])
    check.equal("start_after values", ids(by_pop.start_after({"pop": 650})), ["e", "d", "c"])
    check.equal("end_at values", ids(by_pop.end_at({"pop": 680})), ["a", "f", "b", "e"])
    check.equal("end_before values", ids(by_pop.end_before({"pop": 680})), ["a", "f", "b"])
    check.equal("start_at a list", ids(by_pop.start_at([650])), ["b", "e", "d", "c"])
    b, e, c = (cities.document(id).get() for id in "bec")
    check.equal("start_at a snapshot", ids(by_pop.start_at(b)), ["b", "e", "d", "c"])
    check.equal("start_after a snapshot", ids(by_pop.start_after(b)), ["e", "d", "c"])
    check.equal("end_at a snapshot", ids(by_pop.end_at(e)), ["a", "f", "b", "e"])
    check.equal("end_before a snapshot", ids(by_pop.end_before(e)), ["a", "f", "b"])
    check.equal("start_after a snapshot without orders (__name__)", ids(cities.start_after(c)), ["d", "e", "f"])
    check.equal("a snapshot cursor with a filter", ids(where("capital", "==", False).start_after(c)), ["e", "f"])
    check.equal("offset and limit", ids(by_pop.offset(2).limit(2)), ["b", "e"])
    # The client flips the orders of the query it is given in place: a fresh one each time.
    check.equal("limit_to_last", ids(cities.order_by("pop").limit_to_last(2)), ["d", "c"])
    check.equal("limit_to_last descending", ids(cities.order_by("pop", direction=firestore.Query.DESCENDING).limit_to_last(2)), ["f", "a"])
    projected = cities.select(["name", "state"]).order_by("pop").limit(1).get()[0]
    check.equal("select keeps only the fields asked", projected.to_dict(), {"name": "Ann Arbor", "state": "MI"})
    check.equal("select of no fields: names only", [s.to_dict() for s in cities.select([]).limit(2).get()], [{}, {}])
    check.equal("stream gives what get gives", [s.id for s in by_pop.stream()], ids(by_pop))
    check.equal("a subcollection", ids(db.collection("cities/a/landmarks")), ["l1"])
    group = db.collection_group("landmarks")
    check.equal("collection group", [s.reference.path for s in group.get()], ["cities/a/landmarks/l1", "cities/b/landmarks/l2", "other/x/landmarks/l3"])
    check.equal("collection group with a filter", ids(group.where(filter=FieldFilter("type", "==", "museum"))), ["l1", "l3"])
    check.equal("collection group after a snapshot", ids(group.start_after(db.document("cities/b/landmarks/l2").get())), ["l3"])
    partitions = list(group.get_partitions(3))
    check.equal("get_partitions covers the whole group", sorted(s.id for p in partitions for s in p.query().get()), ["l1", "l2", "l3"])


def aggregations(check, db):
    from google.cloud.firestore_v1.base_query import FieldFilter

    cities = db.collection("cities")

    def results(aggregation):
        return {result.alias: result.value for result in aggregation.get()[0]}

    check.equal("count", [r.value for r in cities.count().get()[0]], [6])
    check.equal("count, sum and avg with aliases", results(cities.count(alias="all").sum("pop", alias="people").avg("score", alias="mean")),
                {"all": 6, "people": 5400, "mean": 22 / 6})
    total = results(cities.sum("score", alias="s"))["s"]
    check.equal("sum of integers and doubles is a double", (total, type(total)), (22.0, float))
    check.equal("count with a filter", results(cities.where(filter=FieldFilter("capital", "==", True)).count(alias="c")), {"c": 2})
    check.equal("count with a limit", results(cities.limit(4).count(alias="c")), {"c": 4})
    check.equal("count after an offset", results(cities.order_by("pop").offset(4).count(alias="c")), {"c": 2})
    empty = db.collection("nothing-here")
    # The client reads a null as 0.0 and the integer 0 as 0.0: look at the response itself.
    request = {"parent": db._database_string + "/documents",
               "structured_aggregation_query": empty.sum("x", alias="s").avg("x", alias="a")._to_protobuf()}
    response = next(iter(db._firestore_api.run_aggregation_query(request=request, metadata=db._rpc_metadata)))
    fields = response.result.aggregate_fields
    check.equal("sum of nothing is the integer 0, avg of nothing is null",
                {alias: fields[alias]._pb.WhichOneof("value_type") for alias in ("s", "a")}, {"s": "integer_value", "a": "null_value"})
    check.equal("count of a collection group", results(db.collection_group("landmarks").count(alias="c")), {"c": 3})
    check.equal("stream of an aggregation", [r.value for r in next(iter(cities.count(alias="n").stream()))], [6])


# MARK: Transactions, batches, the bulk writer

def transactions(check, db, other_client):
    from google.api_core import exceptions
    from google.cloud import firestore

    accounts = db.collection("accounts")
    accounts.document("alice").set({"balance": 100})
    accounts.document("bob").set({"balance": 0})

    @firestore.transactional
    def move(transaction, amount):
        alice = accounts.document("alice").get(transaction=transaction).get("balance")
        bob = accounts.document("bob").get(transaction=transaction).get("balance")
        transaction.update(accounts.document("alice"), {"balance": alice - amount})
        transaction.update(accounts.document("bob"), {"balance": bob + amount})
        return alice - amount

    check.equal("a read-write transaction answers", move(db.transaction(), 30), 70)
    check.equal("its writes are committed together", [accounts.document(n).get().get("balance") for n in ("alice", "bob")], [70, 30])

    # A plain write to a document a transaction read waits for the transaction's lock, as on
    # Firestore and Google's emulator, then goes through after the transaction's own write:
    # the transaction is not aborted (it was, when Shelf's transactions took no locks).
    transaction = db.transaction()
    transaction._begin()
    balance = accounts.document("alice").get(transaction=transaction).get("balance")
    writer = threading.Thread(target=lambda: other_client.document("accounts/alice").update({"balance": firestore.Increment(1000)}))
    writer.start()
    time.sleep(0.3)
    check.true("a plain write to a document a transaction read waits for the transaction", writer.is_alive())
    transaction.update(accounts.document("alice"), {"balance": balance + 1})
    transaction._commit()
    writer.join()
    check.equal("then goes through, after the transaction's write", accounts.document("alice").get().get("balance"), 1071)

    # Two transactions that read one document and then write it (a counter's increments):
    # the older wounds the younger, which the client runs again; none is lost.
    def increment(client):
        @firestore.transactional
        def once(transaction):
            counter = client.document("counters/shared")
            snapshot = counter.get(transaction=transaction)
            transaction.set(counter, {"n": (snapshot.get("n") if snapshot.exists else 0) + 1})
        for _ in range(20):
            once(client.transaction())
    workers = [threading.Thread(target=increment, args=(client,)) for client in (db, other_client, db, other_client)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    check.equal("four clients incrementing one counter 20 times each in transactions lose none", db.document("counters/shared").get().get("n"), 80)

    @firestore.transactional
    def read_only(transaction):
        snapshots = list(transaction.get_all([accounts.document("alice"), accounts.document("bob")]))
        ordered = list(transaction.get(accounts.order_by("balance")))
        return [s.get("balance") for s in snapshots], [s.id for s in ordered]

    check.equal("a read-only transaction reads documents and queries", read_only(db.transaction(read_only=True)), ([1071, 30], ["bob", "alice"]))

    @firestore.transactional
    def counts(transaction):
        return accounts.count(alias="n").get(transaction=transaction)

    result = counts(db.transaction())
    check.equal("an aggregation in a transaction", [r.value for r in list(result)[0]], [2])

    @firestore.transactional
    def failing(transaction):
        transaction.update(accounts.document("alice"), {"balance": 0})
        raise RuntimeError("the caller's own failure")

    check.raises("a transaction that raises is rolled back", RuntimeError, lambda: failing(db.transaction()))
    check.equal("nothing of it is written", accounts.document("alice").get().get("balance"), 1071)

    @firestore.transactional
    def creating(transaction):
        if not accounts.document("carol").get(transaction=transaction).exists:
            transaction.create(accounts.document("carol"), {"balance": 5})

    creating(db.transaction())
    check.equal("a transaction that read a missing document creates it", accounts.document("carol").get().get("balance"), 5)


def batches(check, db):
    from google.api_core import exceptions
    from google.cloud import firestore

    batch = db.batch()
    batch.set(db.document("batch/one"), {"n": 1})
    batch.create(db.document("batch/two"), {"n": 2})
    batch.set(db.document("batch/three"), {"n": 3})
    results = batch.commit()
    check.equal("a batch answers a result per write", len(results), 3)
    batch = db.batch()
    batch.update(db.document("batch/one"), {"n": firestore.Increment(10)})
    batch.delete(db.document("batch/three"))
    batch.commit()
    check.equal("a batch's update and delete", ids(db.collection("batch")), ["one", "two"])
    check.equal("...with the transform applied", db.document("batch/one").get().get("n"), 11)
    batch = db.batch()
    batch.set(db.document("batch/four"), {"n": 4})
    batch.update(db.document("batch/missing"), {"n": 0})
    check.raises("a batch with a failing write", exceptions.NotFound, batch.commit)
    check.equal("...writes none of it", db.document("batch/four").get().exists, False)


def bulk_writer(check, db):
    from google.cloud.firestore_v1.base_query import FieldFilter
    from google.cloud.firestore_v1.bulk_writer import BulkWriterOptions, SendMode

    count = 3000
    # Unthrottled: the client's own ramp (500 a second at first) would measure the client.
    writer = db.bulk_writer(options=BulkWriterOptions(mode=SendMode.parallel, initial_ops_per_second=100000, max_ops_per_second=100000))
    results = []
    failures = []
    writer.on_write_result(lambda reference, result, _: results.append(result))
    writer.on_write_error(lambda failure, _: failures.append(failure) and False)
    started = time.monotonic()
    for index in range(count):
        writer.create(db.document(f"bulk/doc{index:05}"), {"index": index, "even": index % 2 == 0})
    writer.update(db.document("bulk/missing"), {"x": 1})
    writer.close()
    seconds = time.monotonic() - started
    print(f"      bulk writer: {count} documents in {seconds:.2f} s ({count / seconds:.0f} a second)")
    check.equal("every write of the bulk writer succeeds", len(results), count)
    check.equal("the failing one fails alone with NOT_FOUND", [f.code for f in failures], [5])
    check.equal("the documents are there", [r.value for r in db.collection("bulk").count().get()[0]], [count])
    check.equal("a query over them", [r.value for r in db.collection("bulk").where(filter=FieldFilter("even", "==", True)).count().get()[0]], [count // 2])


# MARK: Listing, deleting, reading many

def listing(check, db):
    check.equal("collections() at the root", sorted(c.id for c in db.collections()),
                ["accounts", "batch", "books", "bulk", "cities", "counters", "odd", "other", "values"])
    check.equal("a document's collections()", [c.id for c in db.document("cities/a").collections()], ["landmarks"])
    listed = list(db.collection("cities").list_documents(page_size=4))
    check.equal("list_documents pages through every document", [r.id for r in listed], ["a", "b", "c", "d", "e", "f"])
    check.equal("list_documents shows missing documents with subcollections", [r.id for r in db.collection("other").list_documents()], ["x"])
    check.equal("...which read as missing", db.document("other/x").get().exists, False)

    found = db.get_all([db.document("cities/b"), db.document("cities/none"), db.document("cities/a")])
    by_id = {s.id: s for s in found}
    check.equal("get_all finds and misses", sorted((id, s.exists) for id, s in by_id.items()), [("a", True), ("b", True), ("none", False)])
    masked = list(db.get_all([db.document("cities/a")], field_paths=["name"]))
    check.equal("get_all with field paths", masked[0].to_dict(), {"name": "Ann Arbor"})

    check.equal("recursive() lists descendants", [s.reference.path for s in db.collection("cities").recursive().get()],
                ["cities/a", "cities/a/landmarks/l1", "cities/b", "cities/b/landmarks/l2", "cities/c", "cities/d", "cities/e", "cities/f"])
    deleted = db.recursive_delete(db.document("cities/a"))
    check.equal("recursive_delete of a document counts it and its descendants", deleted, 2)
    check.equal("...which are gone", (db.document("cities/a").get().exists, db.document("cities/a/landmarks/l1").get().exists), (False, False))
    deleted = db.recursive_delete(db.collection("other"))
    check.equal("recursive_delete of a collection counts the documents that exist", deleted, 1)
    check.equal("...leaves none", [s.id for s in db.collection("other").recursive().get()], [])
    check.true("...and the collection is gone from collections()", "other" not in [c.id for c in db.collections()])
    check.equal("...and from list_documents", [r.id for r in db.collection("other").list_documents()], [])
    check.equal("...and the rest", [s.reference.path for s in db.collection_group("landmarks").get()], ["cities/b/landmarks/l2"])
    deleted = db.recursive_delete(db.collection("bulk"))
    check.equal("recursive_delete of the bulk writer's thousands", deleted, 3000)


# MARK: Listeners

def listeners(check, db):
    from google.cloud.firestore_v1.base_query import FieldFilter

    events = queue.Queue()
    ref = db.document("live/one")
    ref.set({"n": 1})
    watch = ref.on_snapshot(lambda snapshots, changes, read_time: events.put(("doc", [s.to_dict() if s.exists else None for s in snapshots])))

    def next_event(what):
        try:
            return events.get(timeout=20)
        except queue.Empty:
            check.fail(what, "no snapshot within 20 seconds")
            return None

    check.equal("a document listener's first snapshot", next_event("first document snapshot"), ("doc", [{"n": 1}]))
    ref.update({"n": 2})
    check.equal("...a change", next_event("document change"), ("doc", [{"n": 2}]))
    ref.delete()
    # The client passes the documents that exist: none once it is deleted.
    check.equal("...a delete", next_event("document delete"), ("doc", []))
    watch.unsubscribe()

    live = db.collection("live")
    live.document("a").set({"n": 1, "keep": True})
    query = live.where(filter=FieldFilter("keep", "==", True))

    def changes(snapshots, changes, read_time):
        events.put(("query", sorted((c.type.name, c.document.id) for c in changes), [s.id for s in snapshots]))

    watch = query.on_snapshot(changes)
    check.equal("a query listener's first snapshot", next_event("first query snapshot"), ("query", [("ADDED", "a")], ["a"]))
    live.document("b").set({"n": 2, "keep": True})
    check.equal("...an added document", next_event("query add"), ("query", [("ADDED", "b")], ["a", "b"]))
    live.document("a").update({"n": 10})
    check.equal("...a modified document", next_event("query modify"), ("query", [("MODIFIED", "a")], ["a", "b"]))
    live.document("b").update({"keep": False})
    check.equal("...a document leaving the query", next_event("query remove"), ("query", [("REMOVED", "b")], ["a"]))
    live.document("a").delete()
    check.equal("...a deleted document", next_event("query delete"), ("query", [("REMOVED", "a")], []))
    watch.unsubscribe()


# MARK: Databases and firebase-admin

def databases(check, db, make_client):
    other = make_client("other-db")
    other.document("books/dune").set({"in": "other"})
    check.equal("a named database reads its own document", other.document("books/dune").get().to_dict(), {"in": "other"})
    check.equal("(default) keeps its own", db.document("books/dune").get().get("title"), "Dune")
    check.equal("the named database has only what was written to it", [c.id for c in other.collections()], ["books"])
    other.document("only/here").set({"x": 1})
    check.equal("(default) does not see it", db.document("only/here").get().exists, False)


def firebase_admin_client(check):
    import firebase_admin
    import google.auth.credentials
    from firebase_admin import credentials, firestore

    class EmulatorCredential(credentials.Base):
        """The emulator takes any caller; the client sends `Bearer owner` whatever this is."""

        def get_credential(self):
            return google.auth.credentials.AnonymousCredentials()

    app = firebase_admin.initialize_app(EmulatorCredential(), {"projectId": PROJECT}, name="shelf-python-client")
    try:
        admin = firestore.client(app)
        check.equal("firebase-admin's client reads what google-cloud-firestore wrote", admin.document("books/dune").get().get("title"), "Dune")
        admin.document("admin/one").set({"by": "firebase-admin", "at": firestore.SERVER_TIMESTAMP})
        check.equal("firebase-admin writes", admin.document("admin/one").get().get("by"), "firebase-admin")
        check.equal("firebase-admin queries", [s.id for s in admin.collection("admin").where(filter=firestore.FieldFilter("by", "==", "firebase-admin")).get()], ["one"])
        named = firestore.client(app, database_id="other-db")
        check.equal("firebase-admin on a named database", named.document("books/dune").get().to_dict(), {"in": "other"})
    finally:
        firebase_admin.delete_app(app)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", metavar="URL", help="serve this (empty) PostgreSQL database instead of a fresh folder")
    parser.add_argument("--shelf", default=str(ROOT / ".build/debug/shelf"), help="the shelf executable (default: %(default)s)")
    arguments = parser.parse_args()
    if not os.access(arguments.shelf, os.X_OK):
        raise SystemExit(f"{arguments.shelf} is not an executable: run `swift build` first, or give --shelf")

    folder = None if arguments.postgres else tempfile.mkdtemp(prefix="shelf-python-client-")
    server = servers.shelf(arguments.shelf, arguments.postgres or folder, log=sys.stderr)
    print(f"shelf serve on {server.address} for {arguments.postgres or folder}", flush=True)
    os.environ["FIRESTORE_EMULATOR_HOST"] = server.address
    from google.cloud import firestore

    def make_client(database="(default)"):
        return firestore.Client(project=PROJECT, database=database)

    check = Checks()
    try:
        db = make_client()
        existing = [c.id for c in db.collections()]
        if existing:
            raise SystemExit(f"the database is not empty (it has {', '.join(existing)}): give an empty one")
        started = time.monotonic()
        check.run("documents", documents, db)
        check.run("update times", update_times, db)
        check.run("more documents", more_documents, db)
        check.run("transforms", transforms, db)
        check.run("values", values, db)
        seed_cities(db)
        check.run("queries", queries, db)
        check.run("aggregations", aggregations, db)
        check.run("transactions", transactions, db, make_client())
        check.run("batches", batches, db)
        check.run("bulk writer", bulk_writer, db)
        check.run("listing", listing, db)
        check.run("listeners", listeners, db)
        check.run("databases", databases, db, make_client)
        check.run("firebase-admin", firebase_admin_client)
        print(f"python client against shelf serve ({'PostgreSQL' if arguments.postgres else 'folder'}): "
              f"{check.passed} passed, {check.failed} failed in {time.monotonic() - started:.1f} s", flush=True)
    finally:
        server.stop()
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
