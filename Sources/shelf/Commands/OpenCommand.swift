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
        tuneMalloc()
        let location = try options.location(creatingMissing: true)
        let store = try location.openStore(pollingInterval: Double(pollInterval) / 1000)
        ShelfApp.run(store: store, notice: location.notice, mouse: !noMouse)
    }
}

/// glibc's malloc, set for a large collection (unless its environment variable says otherwise):
///
/// - One arena a core (`MALLOC_ARENA_MAX`; glibc's default is eight a core): each thread that
///   allocates gets one and keeps what was freed in it for its own next allocations, so the
///   threads that read and decode a large collection left resident memory behind in arenas
///   nobody used again (100,000 books: 174 MiB at the peak, 161 MiB with one arena a core).
/// - Blocks of 4 MiB and more mapped on their own (`MALLOC_MMAP_THRESHOLD_`), so the large
///   arrays a load makes and drops (a listing of a million names, a sort's entries, an order
///   merged) go back to the system when freed. By default glibc raises the threshold to the
///   largest block freed, and later arrays of a few MB then come from the heap, where what
///   they leave when freed stays resident: a million books peaked at 643-650 MiB, 613-617
///   with the threshold kept. At 128 KiB the load was 0.4-0.8 s slower (fresh pages for
///   every growing array).
private func tuneMalloc() {
    typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: MallocOption.self)
    let environment = ProcessInfo.processInfo.environment
    // The options' numbers, which Glibc's module leaves out with <malloc.h>.
    let arenaMax: Int32 = -8, mmapThreshold: Int32 = -3
    if environment["MALLOC_ARENA_MAX"] == nil {
        _ = mallopt(arenaMax, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
    }
    if environment["MALLOC_MMAP_THRESHOLD_"] == nil {
        _ = mallopt(mmapThreshold, 4 << 20)
    }
}
