import ArgumentParser
import Foundation

/// `shelf` / `shelf open`: the terminal UI.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the terminal UI (the default).")

    @OptionGroup var options: DataOptions

    @Option(name: .customLong("poll-interval"), help: ArgumentHelp("How often to look for changes on disk, in milliseconds.", valueName: "ms"))
    var pollInterval: Int = 250

    @Flag(name: .customLong("no-mouse"), help: "Leave the mouse to the terminal (its own selection): no clicks or wheel in Shelf.")
    var noMouse = false

    func validate() throws {
        guard (10...60_000).contains(pollInterval) else {
            throw ValidationError("--poll-interval must be between 10 and 60000 milliseconds, got \(pollInterval)")
        }
    }

    func run() throws {
        let location = try options.location()
        let store = try location.openStore(pollingInterval: Double(pollInterval) / 1000)
        ShelfApp.run(store: store, notice: location.notice, mouse: !noMouse)
    }
}
