import ArgumentParser
import Foundation

/// `shelf` / `shelf open`: the terminal UI.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the terminal UI (the default).",
        discussion: "A --data folder that does not exist is created (empty) if its parent exists.")

    @OptionGroup var options: DataOptions

    // Unconditional: `-5` is taken as the value, so the range is said, not "Missing value".
    @Option(name: .customLong("poll-interval"), parsing: .unconditional,
            help: ArgumentHelp("How often to look for changes on disk, in milliseconds (10 to 60000).", valueName: "ms"))
    var pollInterval: Int = 250

    @Flag(name: .customLong("no-mouse"), help: "Leave the mouse to the terminal (its own selection): no clicks or wheel in Shelf.")
    var noMouse = false

    /// Open is the default command, so a mistyped one (`shelf chek`) arrives here as a word:
    /// taken, to say it is no command, instead of open's usage.
    @Argument(help: ArgumentHelp(visibility: .hidden))
    var unknownCommand: String?

    func validate() throws {
        if let unknownCommand {
            let commands = ShelfCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
            let message = "shelf: unknown command '\(unknownCommand)': the commands are \(commands.joined(separator: ", ")) (see shelf --help)"
            FileHandle.standardError.write(Data((PrintableText.safe(message) + "\n").utf8))
            throw ExitCode(ExitCode.validationFailure.rawValue)
        }
        guard (10...60_000).contains(pollInterval) else {
            throw ValidationError("--poll-interval must be between 10 and 60000 milliseconds, got \(pollInterval)")
        }
    }

    func run() throws {
        limitMallocArenas()
        let location = try options.location(creatingMissing: true)
        let store = try location.openStore(pollingInterval: Double(pollInterval) / 1000)
        ShelfApp.run(store: store, notice: location.notice, mouse: !noMouse)
    }
}

/// One malloc arena a core (glibc's default is eight a core), unless MALLOC_ARENA_MAX says
/// otherwise: each thread that allocates gets one and
/// keeps what was freed in it for its own next allocations, so the threads that read and decode
/// a large collection left resident memory behind in arenas nobody used again (100,000 books:
/// 174 MiB at the peak, 161 MiB with one arena a core, as fast).
private func limitMallocArenas() {
    guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil else { return }
    let arenaMax: Int32 = -8  // M_ARENA_MAX, which Glibc's module leaves out with <malloc.h>
    typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
    _ = unsafeBitCast(symbol, to: MallocOption.self)(arenaMax, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
}
