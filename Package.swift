// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Shelf",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DocumentStore", targets: ["DocumentStore"]),
        .library(name: "ShelfModels", targets: ["ShelfModels"]),
        .executable(name: "shelf", targets: ["shelf"]),
        .executable(name: "shelf-bench", targets: ["shelf-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Firestore-shaped document database on JSON files: Foundation and Dispatch only.
        .target(name: "DocumentStore"),
        // The guide's sample app: models, Color, view models.
        .target(name: "ShelfModels", dependencies: ["DocumentStore"]),
        // Pure terminal UI: state + size -> grid of cells. Knows nothing of ncurses.
        .target(name: "TerminalUI", dependencies: ["ShelfModels"]),
        // ncursesw, linked through the modulemap (pkgConfig would pass flags SwiftPM refuses).
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        .executableTarget(
            name: "shelf",
            dependencies: [
                "DocumentStore", "ShelfModels", "TerminalUI", "CNcursesw",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "shelf-bench",
            dependencies: ["DocumentStore", "ShelfModels"]),
        .testTarget(name: "DocumentStoreTests", dependencies: ["DocumentStore"]),
        .testTarget(name: "ShelfModelsTests", dependencies: ["ShelfModels"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"]),
        // Drives the built `shelf` binary: its commands, and the UI in tmux.
        .testTarget(name: "ShelfEndToEndTests"),
    ]
)
