import ArgumentParser
import DocumentStore
import Foundation
import ShelfModels

/// `shelf check`: the scripted counterpart of the UI's error display.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Decode every document with its model (other folders and subcollections: read each as a JSON object) and print one line per problem.",
        discussion: "Exit status: 0 when every document decodes, 1 when any does not.")

    @OptionGroup var options: DataOptions

    func run() throws {
        let store = try options.location().openStore()
        let check = try waitFor { try await DataCheck.run(on: store) }
        // One problem a line: each printed safely (file names and values may hold anything).
        print(check.report.split(separator: "\n", omittingEmptySubsequences: false).map { PrintableText.safe(String($0)) }.joined(separator: "\n"))
        if !check.problems.isEmpty { throw ExitCode(1) }
    }
}

/// Runs async work from a synchronous command (the UI needs `dispatchMain`, so the commands
/// are synchronous).
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, Error>?
    Task.detached {
        do { result = .success(try await work()) } catch { result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try result!.get()
}
