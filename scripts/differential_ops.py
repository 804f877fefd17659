"""The random operations of scripts/differential.py: values of every Firestore type, documents,
queries (as raw `StructuredQuery` dicts, so that nothing the Python client checks or rewrites
stands between the request and the server), aggregations and writes. Everything is drawn from
one `random.Random`, so a seed gives the same operations on every run."""
import datetime
import math

COLLECTION = "c"
GROUP = "g"
FIELDS = ["a", "b", "t", "m.k", "m", "z"]
IDS = [f"d{i:02d}" for i in range(24)]

OPERATORS = ["LESS_THAN", "LESS_THAN_OR_EQUAL", "GREATER_THAN", "GREATER_THAN_OR_EQUAL", "EQUAL",
             "NOT_EQUAL", "ARRAY_CONTAINS", "IN", "ARRAY_CONTAINS_ANY", "NOT_IN"]
LIST_OPERATORS = {"IN", "NOT_IN", "ARRAY_CONTAINS_ANY"}
UNARY = ["IS_NAN", "IS_NULL", "IS_NOT_NAN", "IS_NOT_NULL"]


class Values:
    """Firestore values as the protocol's `Value` dicts, one pool per type, small enough that
    filters meet stored values often."""

    def __init__(self, rng, database):
        self.rng = rng
        self.database = database

    def reference(self, path):
        return {"reference_value": f"{self.database}/documents/{path}"}

    def scalar(self):
        r = self.rng
        kind = r.choice(["null", "bool", "int", "int", "double", "double", "string", "string", "bytes",
                         "timestamp", "geo", "reference"])
        if kind == "null":
            return {"null_value": 0}
        if kind == "bool":
            return {"boolean_value": r.random() < 0.5}
        if kind == "int":
            return {"integer_value": r.choice([-2, -1, 0, 1, 2, 3, 7, 2**53 + 1, -2**63, 2**63 - 1])}
        if kind == "double":
            return {"double_value": r.choice([-1.5, -0.0, 0.0, 0.5, 1.0, 2.0, 3.0, math.nan, math.inf, -math.inf, 1e300])}
        if kind == "string":
            return {"string_value": r.choice(["", "a", "b", "ab", "B", "é", "a\u0000b", "z" * 3])}
        if kind == "bytes":
            return {"bytes_value": r.choice([b"", b"a", b"\x00", b"ab"])}
        if kind == "timestamp":
            seconds = r.choice([0, 86400, 1_700_000_000])
            return {"timestamp_value": {"seconds": seconds, "nanos": r.choice([0, 1000, 999_999_000])}}
        if kind == "geo":
            return {"geo_point_value": {"latitude": r.choice([-90.0, 0.0, 12.5]), "longitude": r.choice([-180.0, 0.0, 3.25])}}
        return self.reference(f"{COLLECTION}/{r.choice(IDS)}")

    def value(self, depth=0):
        r = self.rng
        roll = r.random()
        if depth < 2 and roll < 0.12:
            return {"array_value": {"values": [self.value(depth + 1) for _ in range(r.randint(0, 3))]}}
        if depth < 2 and roll < 0.2:
            return {"map_value": {"fields": {k: self.value(depth + 1) for k in r.sample(["k", "l"], r.randint(0, 2))}}}
        return self.scalar()

    def fields(self):
        """A document's fields: `a` any type (mixed types in one field across documents),
        `b` a small number, `t` an array, `m` a map with `k`; each sometimes missing."""
        r = self.rng
        fields = {}
        if r.random() < 0.9:
            fields["a"] = self.value()
        if r.random() < 0.8:
            fields["b"] = r.choice([{"integer_value": r.randint(-3, 5)}, {"double_value": r.choice([0.5, 2.0, -1.0])}])
        if r.random() < 0.6:
            fields["t"] = {"array_value": {"values": [self.scalar() for _ in range(r.randint(0, 3))]}}
        if r.random() < 0.5:
            fields["m"] = {"map_value": {"fields": {"k": self.scalar()}}}
        return fields


def field_ref(path):
    return {"field_path": path}


class Queries:
    """Random `StructuredQuery` dicts over `c` (or the collection group `g`)."""

    def __init__(self, rng, values):
        self.rng = rng
        self.values = values

    def field_filter(self):
        r = self.rng
        if r.random() < 0.12:
            return {"unary_filter": {"field": field_ref(r.choice(FIELDS)), "op": r.choice(UNARY)}}
        op = r.choice(OPERATORS)
        field = "__name__" if r.random() < 0.08 else r.choice(FIELDS)
        if field == "__name__" and r.random() < 0.85:
            make = lambda: self.values.reference(f"{COLLECTION}/{r.choice(IDS)}")  # noqa: E731
        else:
            make = self.values.value
        if op in LIST_OPERATORS:
            count = r.choice([0, 1, 2, 3, 3, 4, 11, 31]) if r.random() < 0.1 else r.randint(1, 4)
            value = {"array_value": {"values": [make() for _ in range(count)]}}
        else:
            value = make()
        return {"field_filter": {"field": field_ref(field), "op": op, "value": value}}

    def filter(self, depth=0):
        r = self.rng
        if depth < 2 and r.random() < 0.3:
            op = r.choice(["AND", "OR"])
            return {"composite_filter": {"op": op, "filters": [self.filter(depth + 1) for _ in range(r.randint(1 if op == "OR" else 0, 3))]}}
        return self.field_filter()

    def query(self):
        r = self.rng
        group = r.random() < 0.15
        query = {"from_": [{"collection_id": GROUP if group else COLLECTION, "all_descendants": group}]}
        if r.random() < 0.75:
            query["where"] = self.filter()
        if r.random() < 0.6:
            fields = r.sample(["a", "b", "t", "m.k", "__name__"], r.randint(1, 2))
            if r.random() < 0.05:
                fields.append(fields[0])  # a duplicate order, which Firestore refuses
            query["order_by"] = [{"field": field_ref(f), "direction": r.choice(["ASCENDING", "DESCENDING"])} for f in fields]
        orders = len(query.get("order_by", []))
        for cursor in ("start_at", "end_at"):
            if r.random() < 0.2:
                count = r.randint(1, orders + 1) if r.random() < 0.25 else r.randint(1, max(orders, 1))
                names = [o["field"]["field_path"] for o in query.get("order_by", [])]
                values = []
                for i in range(count):
                    if i < len(names) and names[i] == "__name__" and r.random() < 0.9:
                        values.append(self.values.reference(f"{COLLECTION}/{r.choice(IDS)}"))
                    else:
                        values.append(self.values.value())
                query[cursor] = {"values": values, "before": r.random() < 0.5}
        if r.random() < 0.3:
            query["limit"] = {"value": r.choice([0, 1, 2, 3, 5, 10])}
        if r.random() < 0.15:
            query["offset"] = r.choice([1, 2, 5])
        if r.random() < 0.15:
            query["select"] = {"fields": [field_ref(f) for f in r.sample(["a", "b", "m.k", "__name__"], r.randint(0, 2))]}
        return query

    def aggregation(self):
        """A `StructuredAggregationQuery` dict: count, sum or avg, up to three, with aliases."""
        r = self.rng
        query = self.query()
        query.pop("select", None)
        aggregations = []
        for i in range(r.randint(1, 3)):
            kind = r.choice(["count", "count", "sum", "avg"])
            body = {"up_to": {"value": r.randint(1, 5)}} if kind == "count" and r.random() < 0.2 else {}
            if kind != "count":
                body = {"field": field_ref(r.choice(["a", "b", "m.k"]))}
            aggregations.append({kind: body, "alias": f"x{i}"})
        return {"structured_query": query, "aggregations": aggregations}


def transform(rng, values):
    """One `FieldTransform` dict on `b`, `a`, `t` or the server-time field `st`."""
    kind = rng.choice(["server", "increment", "maximum", "minimum", "union", "remove"])
    if kind == "server":
        return {"field_path": "st", "set_to_server_value": "REQUEST_TIME"}
    if kind in ("increment", "maximum", "minimum"):
        operand = rng.choice([{"integer_value": rng.randint(-2, 3)}, {"double_value": rng.choice([0.5, -1.5, math.inf])},
                              {"integer_value": 2**63 - 1}, values.scalar()])
        return {"field_path": rng.choice(["b", "a"]), kind: operand}
    elements = {"values": [values.scalar() for _ in range(rng.randint(0, 2))]}
    return {"field_path": "t", "append_missing_elements" if kind == "union" else "remove_all_from_array": elements}


def write(rng, values, database):
    """A `Write` dict: set, merge (update with a mask), update (exists precondition), delete or
    a transform alone; with a precondition sometimes, and transforms after it."""
    doc = f"{database}/documents/{COLLECTION}/{rng.choice(IDS)}"
    if rng.random() < 0.1:
        doc = f"{database}/documents/{COLLECTION}/{rng.choice(IDS[:4])}/{GROUP}/{rng.choice(IDS[:4])}"
    kind = rng.choice(["set", "set", "merge", "update", "delete", "transform"])
    result = {}
    if kind == "delete":
        result["delete"] = doc
    elif kind == "transform":
        result["transform"] = {"document": doc, "field_transforms": [transform(rng, values)]}
    else:
        result["update"] = {"name": doc, "fields": values.fields()}
        if kind in ("merge", "update"):
            paths = [f for f in rng.sample(["a", "b", "t", "m.k", "z"], rng.randint(0, 3))]
            result["update_mask"] = {"field_paths": paths}
        if rng.random() < 0.35:
            result["update_transforms"] = [transform(rng, values) for _ in range(rng.randint(1, 2))]
    if kind == "update":
        result["current_document"] = {"exists": True}
    elif rng.random() < 0.2:
        result["current_document"] = {"exists": rng.random() < 0.5}
    elif rng.random() < 0.05:
        result["current_document"] = {"update_time": {"seconds": 86400}}
    return result


def timestamp_now():
    return datetime.datetime.now(datetime.timezone.utc)
