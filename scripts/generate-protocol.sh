#!/usr/bin/env bash
# Makes Sources/FirestoreProtocol/Generated/ again from Protos/: the Swift of Firestore's messages
# (swift-protobuf's protoc-gen-swift) and of its gRPC service (grpc-swift-protobuf's
# protoc-gen-grpc-swift-2), both plugins built from the versions Package.swift pins, in
# .build-protoc. Needs protoc (Debian's protobuf-compiler). The generated files are committed:
# a build never runs this. Check the .proto files against Firestore's with
# scripts/check-protocol.py.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v protoc >/dev/null || { echo "generate-protocol.sh: protoc is missing: apt-get install -y protobuf-compiler" >&2; exit 1; }
scratch="$root/.build-protoc"
for plugin in protoc-gen-swift protoc-gen-grpc-swift-2; do
    swift build -c release --package-path "$root" --scratch-path "$scratch" --product "$plugin"
done
bin="$(swift build -c release --package-path "$root" --scratch-path "$scratch" --show-bin-path)"
out="$root/Sources/FirestoreProtocol/Generated"
rm -rf "$out"
mkdir -p "$out"
cd "$root/Protos"
protos=$(find . -name '*.proto' | sed 's#^\./##' | sort)
protoc -I . --plugin=protoc-gen-swift="$bin/protoc-gen-swift" \
    --swift_out="$out" --swift_opt=Visibility=Public,FileNaming=PathToUnderscores $protos
protoc -I . --plugin=protoc-gen-grpc-swift-2="$bin/protoc-gen-grpc-swift-2" \
    --grpc-swift-2_out="$out" --grpc-swift-2_opt=Visibility=Public,FileNaming=PathToUnderscores \
    google/firestore/v1/firestore.proto
echo "generated: $(ls "$out" | tr '\n' ' ')"
