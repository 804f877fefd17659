import ArgumentParser
import DocumentStore
import Foundation
import ShelfModels
import TerminalKit
import TerminalUI

/// `shelf export`: copies a whole store, every collection at every depth, into an empty one,
/// in batches of 500 (one durability barrier each), losing no type: integers stay integers,
/// timestamps, bytes, GeoPoints and references stay what they are (references re-pointed at
/// the new store), and each document keeps its create and update times.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy every document of the data folder (or server) into another, empty, one.",
        discussion: """
            Documents that cannot be read, or that a store cannot write (maps nested deeper than \
            20 levels), are named and left out (exit status 1); everything else is copied. The \
            destination is created if its parent exists; one that already holds collections, or \
            that is inside the source or holds it, is refused, so nothing there is overwritten.
            """)

    @OptionGroup var options: DataOptions

    @Option(name: .long, help: ArgumentHelp("The destination: a new or empty folder, a postgresql:// URL of an empty database, or a firestore:// URL of an empty database on a Firestore server.", valueName: "dir-or-url"))
    var to: String

    func run() throws {
        let sourceLocation = try options.location()
        try DataLocation.refuseOverlap(of: sourceLocation, "--data", with: to, "--to")
        let destinationLocation = try DataLocation.given(to, option: "--to", creatingMissing: true)
        let source = try sourceLocation.openStore()
        let destination = try destinationLocation.openOtherStore()
        let existing = try destination.listCollections().map(\.collectionID)
        guard existing.isEmpty else {
            throw DataLocation.Problem(description: PrintableText.safe(
                "\(destinationLocation.displayName) already holds collections (\(existing.joined(separator: ", "))): export into a new or empty folder"))
        }
        let progress = ProgressLine()
        var export = StoreCopy(into: destination) { event in
            switch event {
            case .progress(let path, let read, let total): progress.show(path, read, of: total)
            case .finished(let path, let read): progress.finish(path, read)
            case .leftOut(let path, let reason, let error):
                progress.interrupt(with: PrintableText.safe("\(path): cannot be \(reason == .unreadable ? "read" : "copied"), left out: \(error)"))
            }
        }
        let started = Date()
        do {
            try export.copy(from: source)
        } catch {
            throw DataLocation.Problem(description: PrintableText.safe("\(error)")
                + "\n\(export.copied.thousandsSeparated) document\(export.copied == 1 ? " was" : "s were") copied before this; \(destinationLocation.displayName) holds that partial copy")
        }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        let leftOut = [(export.unreadable.count, "read"), (export.refused.count, "copied")].filter { $0.0 > 0 }
            .map { "; \($0.0) could not be \($0.1) and \($0.0 == 1 ? "was" : "were") left out" }
        print("exported \(export.copied.thousandsSeparated) document\(export.copied == 1 ? "" : "s") in \(export.collections) collection\(export.collections == 1 ? "" : "s") "
            + "from \(sourceLocation.displayName) to \(destinationLocation.displayName) in \(seconds) s" + leftOut.joined())
        if !leftOut.isEmpty { throw ExitCode(1) }
    }
}
