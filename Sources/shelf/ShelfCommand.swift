// shelf: the program. Its commands parse arguments and print (open, serve, generate, export,
// list, check); the interface's event loop and ncurses live in Terminal/, the only code that
// knows the terminal library.

import ArgumentParser

@main
struct ShelfCommand: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "shelf",
        abstract: "Browse and edit books and colours kept as JSON documents in a folder.",
        discussion: """
            shelf [--data <dir>] [--poll-interval <ms>] [--no-mouse] opens the interface (see 'shelf open --help'). \
            With no folder given, Shelf opens its own copy of the demo data, made the first time \
            under $XDG_DATA_HOME/shelf (or ~/.local/share/shelf), so the repository stays as it is.
            """,
        version: version,
        subcommands: [OpenCommand.self, CheckCommand.self, ListCommand.self, GenerateCommand.self, ExportCommand.self, ServeCommand.self],
        defaultSubcommand: OpenCommand.self)

    static func main() {
        main(commandFirst(Array(CommandLine.arguments.dropFirst())))
    }

    /// The arguments with a command moved to the front when only `--data` comes before it
    /// (`shelf --data ~/books check`, as `git -C dir status` is written), which the parser
    /// would otherwise take for the app's options and an unknown command. A `--data` whose value
    /// is a command's name (`shelf --data list`, a folder) stays the app's.
    static func commandFirst(_ arguments: [String]) -> [String] {
        let commands = Set(configuration.subcommands.compactMap { $0.configuration.commandName })
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--data" {
                index += 2
            } else if arguments[index].hasPrefix("--data=") {
                index += 1
            } else {
                break
            }
        }
        guard index > 0, index < arguments.count, commands.contains(arguments[index]) else { return arguments }
        return [arguments[index]] + arguments[..<index] + arguments[(index + 1)...]
    }
}

/// Where the documents are: the options every subcommand shares.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The data folder (one folder per collection, one <id>.json per document), a PostgreSQL server: postgresql://user:password@host:port/database, or a Firestore server (shelf serve, the emulator): firestore://host:port/project[/database].", valueName: "dir-or-url"))
    var data: String?

    /// What to open: `--data` (a folder or a server), or the per-user copy of the demo data.
    /// A missing `--data` folder is an error unless `creatingMissing` (the app, generate).
    func location(creatingMissing: Bool = false) throws -> DataLocation {
        if let data { return try DataLocation.given(data, creatingMissing: creatingMissing) }
        return try DataLocation.demoCopy()
    }
}
