// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Shelf",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DocumentStore", targets: ["DocumentStore"]),
        .library(name: "DocumentStorePostgres", targets: ["DocumentStorePostgres"]),
        .library(name: "FirestoreServer", targets: ["FirestoreServer"]),
        .library(name: "DocumentStoreRemote", targets: ["DocumentStoreRemote"]),
        .library(name: "ShelfModels", targets: ["ShelfModels"]),
        .executable(name: "shelf", targets: ["shelf"]),
        .executable(name: "shelf-bench", targets: ["shelf-bench"]),
        .executable(name: "guide-sample", targets: ["guide-sample"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        // Firestore-shaped document database on JSON files: Foundation and Dispatch only.
        .target(name: "DocumentStore"),
        // The same store on a PostgreSQL server, through PostgresNIO; the core never links it.
        .target(
            name: "DocumentStorePostgres",
            dependencies: ["DocumentStore", .product(name: "PostgresNIO", package: "postgres-nio")]),
        // Firestore's wire protocol (google.firestore.v1): the messages and the gRPC service, made
        // from Protos/ by scripts/generate-protocol.sh (the generated Swift is committed).
        .target(
            name: "FirestoreProtocol",
            dependencies: [
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
            ]),
        // What the server and the client both say on the wire: values, field paths, statuses.
        .target(
            name: "FirestoreWire",
            dependencies: [
                "DocumentStore", "FirestoreProtocol",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
        // `shelf serve`: the Firestore service on a store, over gRPC's HTTP/2 transport and, on
        // the same port, HTTP/1.1 (REST and the emulator's endpoints) through SwiftNIO's handlers.
        .target(
            name: "FirestoreServer",
            dependencies: [
                "DocumentStore", "FirestoreProtocol", "FirestoreWire",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // The store as a client of any Firestore server (`shelf serve`, Google's emulator), over
        // gRPC: firestore://host:port/project[/database] and useEmulator, found when linked.
        .target(
            name: "DocumentStoreRemote",
            dependencies: [
                "DocumentStore", "FirestoreProtocol", "FirestoreWire",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ]),
        // The guide's sample app: models, Color, view models.
        .target(name: "ShelfModels", dependencies: ["DocumentStore"]),
        // A generic terminal toolkit: canvas, keys and mouse, palette, widgets. Knows no store,
        // no model and no ncurses.
        .target(name: "TerminalKit"),
        // The Shelf app as pure state: state + size -> a TerminalKit canvas. Knows nothing of ncurses.
        .target(name: "TerminalUI", dependencies: ["DocumentStore", "ShelfModels", "TerminalKit"]),
        // ncursesw, linked through the modulemap (pkgConfig would pass flags SwiftPM refuses).
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        .executableTarget(
            name: "shelf",
            dependencies: [
                "DocumentStore", "DocumentStorePostgres", "DocumentStoreRemote", "FirestoreServer", "ShelfModels", "TerminalKit", "TerminalUI", "CNcursesw",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Released with Swift's libraries inside: no shared Foundation and ICU to load and
            // relocate at each start (`shelf --help` in 10 ms instead of 16). The libraries that
            // Foundation's shared objects would bring along are named, as SwiftPM's
            // --static-swift-stdlib does (which would rebuild every module of the release).
            // Linking prints one warning, of Foundation's own use of mktemp. Linux only: Apple's
            // platforms link Swift's libraries from the system.
            linkerSettings: [.unsafeFlags(["-static-stdlib"] + ["CoreFoundation", "_FoundationICU", "_FoundationCShims", "_FoundationCollections"]
                .flatMap { ["-Xlinker", "-l\($0)"] }, .when(platforms: [.linux], configuration: .release))]),
        // The guide's sample app on a Firestore server, its start-up code with only the import
        // changed: DocumentStoreRemote is linked, never imported (`useEmulator` finds it).
        .executableTarget(name: "guide-sample", dependencies: ["DocumentStore", "DocumentStoreRemote", "ShelfModels"]),
        .executableTarget(
            name: "shelf-bench",
            dependencies: ["DocumentStore", "DocumentStorePostgres", "DocumentStoreRemote", "ShelfModels"]),
        .testTarget(name: "DocumentStoreTests", dependencies: ["DocumentStore"]),
        // The PostgreSQL backend's own tests, and (through Shared/, links to DocumentStoreTests'
        // files) the store's tests run again on PostgreSQL: one suite, two backends.
        .testTarget(
            name: "DocumentStorePostgresTests",
            dependencies: ["DocumentStore", "DocumentStorePostgres", "ShelfModels"],
            swiftSettings: [.define("SHELF_POSTGRES_TESTS")]),
        // The store's tests run again as a client of a `shelf serve` on a folder, started in
        // the test process (through Shared/, links to DocumentStoreTests' files): one suite,
        // three backends. Besides, the client's own tests: errors, the wire, the Listen stream.
        .testTarget(
            name: "DocumentStoreRemoteTests",
            dependencies: ["DocumentStore", "DocumentStoreRemote", "FirestoreServer"],
            swiftSettings: [.define("SHELF_REMOTE_TESTS")]),
        // Firebase's API behind a plain `import DocumentStore`, in Swift 5 and (a link to the same
        // file) Swift 6 language mode: a missing `public` or a mode-specific break fails to build.
        .testTarget(name: "FirebaseAPISwift5Tests", dependencies: ["DocumentStore"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "FirebaseAPISwift6Tests", dependencies: ["DocumentStore"]),
        .testTarget(name: "ShelfModelsTests", dependencies: ["DocumentStore", "ShelfModels"]),
        .testTarget(
            name: "FirestoreProtocolTests",
            dependencies: ["FirestoreProtocol", .product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        // The server driven through the generated gRPC client, on a folder and on PostgreSQL.
        .testTarget(
            name: "FirestoreServerTests",
            dependencies: [
                "DocumentStore", "DocumentStorePostgres", "FirestoreProtocol", "FirestoreServer", "FirestoreWire",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit"]),
        .testTarget(name: "TerminalUITests", dependencies: ["DocumentStore", "DocumentStorePostgres", "ShelfModels", "TerminalKit", "TerminalUI"]),
        // Drives the built `shelf` binary: its commands, and the UI in tmux.
        .testTarget(name: "ShelfEndToEndTests"),
    ]
)
