#!/usr/bin/env python3
"""Checks Shelf's .proto files (Protos/) against the official Python client's own descriptors
(google-cloud-firestore from PyPI): every message, field and enum value Shelf defines must have
Firestore's name, number, type, cardinality and oneof, and every method of the service
Firestore's name and streaming. Shelf may leave parts out; it may not differ.

Run it with a Python that has google-cloud-firestore (.ci/run makes one in .build-venv):
    python scripts/check-protocol.py
Needs protoc (Debian's protobuf-compiler). Prints each difference; exits 1 if there is any.
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2
from google.cloud.firestore_v1.types import document as firestore_document  # loads every type
from google.cloud.firestore_v1.types import firestore as _firestore, query as _query  # noqa: F401
import google.cloud.firestore_v1.services.firestore.transports.grpc as grpc_transport

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTOS = ROOT / "Protos"
# proto-plus renames fields that are Python keywords.
PYTHON_NAMES = {"from": "from_"}


def our_files():
    names = sorted(str(p.relative_to(PROTOS)) for p in PROTOS.rglob("*.proto"))
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "set.pb")
        subprocess.run(["protoc", f"-I{PROTOS}", "--include_imports", f"--descriptor_set_out={out}", *names], check=True)
        descriptors = descriptor_pb2.FileDescriptorSet()
        descriptors.ParseFromString(open(out, "rb").read())
    return [f for f in descriptors.file if f.package == "google.firestore.v1"]


def walk(prefix, messages):
    for message in messages:
        name = f"{prefix}.{message.name}"
        yield name, message
        yield from walk(name, message.nested_type)


def main():
    pool = firestore_document.Document.pb().DESCRIPTOR.file.pool
    problems = []
    checked = 0
    for file in our_files():
        enums = [(f"google.firestore.v1.{e.name}", e) for e in file.enum_type]
        for name, message in walk("google.firestore.v1", file.message_type):
            enums += [(f"{name}.{e.name}", e) for e in message.enum_type]
            try:
                theirs = pool.FindMessageTypeByName(name)
            except KeyError:
                problems.append(f"{name}: no such message in Firestore")
                continue
            for field in message.field:
                checked += 1
                where = f"{name}.{field.name}"
                other = theirs.fields_by_name.get(PYTHON_NAMES.get(field.name, field.name))
                if other is None:
                    problems.append(f"{where}: no such field in Firestore")
                    continue
                ours_type = field.type_name.lstrip(".")
                their_type = (other.message_type or other.enum_type).full_name if (other.message_type or other.enum_type) else ""
                ours_oneof = message.oneof_decl[field.oneof_index].name if field.HasField("oneof_index") else None
                their_oneof = other.containing_oneof.name if other.containing_oneof else None
                if field.number != other.number:
                    problems.append(f"{where}: number {field.number}, Firestore's is {other.number}")
                if field.type != other.type or (ours_type and ours_type.split(".")[-1] != their_type.split(".")[-1]):
                    problems.append(f"{where}: type {field.type} {ours_type}, Firestore's is {other.type} {their_type}")
                if (field.label == field.LABEL_REPEATED) != other.is_repeated:
                    problems.append(f"{where}: repeated differs from Firestore's")
                if ours_oneof != their_oneof:
                    problems.append(f"{where}: oneof {ours_oneof}, Firestore's is {their_oneof}")
        for name, enum in enums:
            theirs = pool.FindEnumTypeByName(name)
            for value in enum.value:
                checked += 1
                other = theirs.values_by_name.get(value.name)
                if other is None or other.number != value.number:
                    problems.append(f"{name}.{value.name} = {value.number}: Firestore's is {other.number if other else 'absent'}")
        for service in file.service:
            source = open(grpc_transport.__file__).read()
            kinds = dict((m, k) for k, m in re.findall(r"_channel\.(\w+)\(\s*\"/google\.firestore\.v1\.Firestore/(\w+)\"", source))
            for method in service.method:
                checked += 1
                kind = f"{'stream' if method.client_streaming else 'unary'}_{'stream' if method.server_streaming else 'unary'}"
                if kinds.get(method.name) != kind:
                    problems.append(f"Firestore.{method.name}: {kind}, Firestore's is {kinds.get(method.name, 'absent')}")
    for problem in problems:
        print(problem)
    print(f"checked {checked} fields, enum values and methods against google-cloud-firestore: "
          + ("all as Firestore's" if not problems else f"{len(problems)} differ"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
