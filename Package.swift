// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Shelf",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DocumentStore", targets: ["DocumentStore"]),
        .library(name: "DocumentStorePostgres", targets: ["DocumentStorePostgres"]),
        .library(name: "ShelfModels", targets: ["ShelfModels"]),
        .executable(name: "shelf", targets: ["shelf"]),
        .executable(name: "shelf-bench", targets: ["shelf-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // Firestore-shaped document database on JSON files: Foundation and Dispatch only.
        .target(name: "DocumentStore"),
        // The same store on a PostgreSQL server, through PostgresNIO; the core never links it.
        .target(
            name: "DocumentStorePostgres",
            dependencies: ["DocumentStore", .product(name: "PostgresNIO", package: "postgres-nio")]),
        // The guide's sample app: models, Color, view models.
        .target(name: "ShelfModels", dependencies: ["DocumentStore"]),
        // Pure terminal UI: state + size -> grid of cells. Knows nothing of ncurses.
        .target(name: "TerminalUI", dependencies: ["ShelfModels"]),
        // ncursesw, linked through the modulemap (pkgConfig would pass flags SwiftPM refuses).
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        .executableTarget(
            name: "shelf",
            dependencies: [
                "DocumentStore", "DocumentStorePostgres", "ShelfModels", "TerminalUI", "CNcursesw",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "shelf-bench",
            dependencies: ["DocumentStore", "DocumentStorePostgres", "ShelfModels"]),
        .testTarget(name: "DocumentStoreTests", dependencies: ["DocumentStore"]),
        // The PostgreSQL backend's own tests, and (through Shared/, links to DocumentStoreTests'
        // files) the store's tests run again on PostgreSQL: one suite, two backends.
        .testTarget(
            name: "DocumentStorePostgresTests",
            dependencies: ["DocumentStore", "DocumentStorePostgres"],
            swiftSettings: [.define("SHELF_POSTGRES_TESTS")]),
        .testTarget(name: "ShelfModelsTests", dependencies: ["ShelfModels"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"]),
        // Drives the built `shelf` binary: its commands, and the UI in tmux.
        .testTarget(name: "ShelfEndToEndTests"),
    ]
)
