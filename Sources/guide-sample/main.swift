// The guide's sample app ("Mapping Firestore Data in Swift", peterfriese/Swift-Firestore-Guide)
// against a Firestore server, as the guide runs it against Firebase's emulator: its start-up
// code as it is written there, with only the import changed (its SwiftUI screens and Firebase
// Auth have no place here), then a tour of its screens' view models, printed. Start a server
// on the guide's port first: `shelf serve --port 8080`, then `swift run guide-sample` (on
// another port, `SHELF_SAMPLE_PORT=<port> swift run guide-sample`).
import DocumentStore
import Foundation
import ShelfModels

// FirestoreCodableSamplesApp.init, as the guide's app has it:
FirebaseApp.configure()

// connect to Firestore Emulator (the guide's port, unless SHELF_SAMPLE_PORT names another:
// 8080 is the emulator's own, often taken on a Firebase developer's machine)
let port = ProcessInfo.processInfo.environment["SHELF_SAMPLE_PORT"].flatMap { Int($0) } ?? 8080
Firestore.firestore().useEmulator(withHost: "localhost", port: port)
let settings = Firestore.firestore().settings
settings.isPersistenceEnabled = false
settings.isSSLEnabled = false
Firestore.firestore().settings = settings

/// Waits, the main queue turning meanwhile (listeners call back on it), until `done` holds.
@MainActor func wait(atMost seconds: Double, until done: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !done() && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    return done()
}

@MainActor func tour() async -> Int32 {
    print("Mapping simple types:")
    let simple = MappingSimpleTypesViewModel()
    await simple.fetchAndMap()
    if let error = simple.errorMessage {
        print("  hitchhiker: \(error)")
        return 1
    }
    print("  hitchhiker: \(simple.book.title) by \(simple.book.author), \(simple.book.numberOfPages) pages")
    await simple.fetchAndMapNonExisting()
    print("  does-not-exist: \(simple.errorMessage ?? "no error")")
    await simple.fetchAndTryMappingInvalidData()
    print("  invalid-data: \(simple.errorMessage ?? "no error")")

    print("Colors (live):")
    let colors = MappingColorsViewModel()
    colors.subscribe()
    guard await wait(atMost: 10, until: { colors.live.hasLoaded }) else {
        print("  no snapshot within 10 s: \(colors.errorMessage ?? "no error")")
        return 1
    }
    let before = colors.colorEntries.count
    print("  \(before) colours, first \(colors.colorEntries.first.map { "\($0.name) (\($0.color))" } ?? "none")")
    colors.newColor = ColorEntry(name: "Guide Teal", color: Color(red: 0, green: 128, blue: 128))
    guard let added = colors.addColorEntry() else {
        print("  adding a colour failed: \(colors.errorMessage ?? "no error")")
        return 1
    }
    guard await wait(atMost: 10, until: { colors.colorEntries.contains { $0.id == added.documentID } }) else {
        print("  the added colour \(added.documentID) never reached the listener")
        return 1
    }
    print("  added Guide Teal as colors/\(added.documentID); the listener now shows \(colors.colorEntries.count) colours")
    colors.unsubscribe()
    return 0
}

exit(await tour())
