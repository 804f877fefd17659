import DocumentStore
enum ShelfApp { static func run(store: Firestore, notice: String?) { print("UI not yet"); } }
