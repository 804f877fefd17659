import DocumentStore
import Foundation

/// `shelf-bench`: for collections of small book documents, how long writes, reads and the
/// first snapshot take, what idle polling costs, how soon an external edit is delivered, and
/// how much memory it all needs. Each size runs in a fresh temporary folder, removed after.
enum Benchmark {
    static func run(_ arguments: [String]) {
        let options = BenchOptions.parse(arguments)
        let started = ContinuousClock.now
        let parent = options.parent ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        TemporaryFolders.shared.removeOnSignals()

        print("shelf-bench: DocumentStore figures")
        #if DEBUG
        print("  WARNING: a debug build; figures mean little. Use `swift run -c release shelf-bench`.")
        #endif
        print("")
        print("Machine")
        for line in MachineFacts(folder: parent).lines { print("  " + line) }
        print("  folder      fresh folders under \(parent) (one per size, removed afterwards)")
        print("  store       polling interval \(Format.duration(.nanoseconds(Int64(options.interval * 1e9)))),"
              + " whole collection stat'ed per tick up to \(SizeRun.statBudget) documents, else \(SizeRun.largeCollectionStatBudget) files a tick; callbacks on a private serial queue")
        print("")
        fflush(nil)  // every stream: stdout may be a pipe

        var results: [SizeResult] = []
        do {
            try checkSeedFormat(parent: parent)
            var previousWriteMean: Duration?
            for size in options.sizes {
                print("\(Format.count(size)) documents")
                fflush(nil)  // every stream: stdout may be a pipe
                Measure.resetPeakMemory()
                let folder = try TemporaryFolders.shared.make(in: parent, label: "\(size)")
                defer { TemporaryFolders.shared.remove(folder) }
                let result = try SizeRun(size: size, options: options, previousWriteMean: previousWriteMean).run(in: folder)
                if !result.writes.isEmpty {
                    previousWriteMean = result.writes.reduce(.zero, +) / result.writes.count
                }
                results.append(result)
                print("")
            }
        } catch {
            FileHandle.standardError.write(Data("shelf-bench: \(error)\n".utf8))
            exit(1)
        }
        print(Report(results: results, options: options).text)
        print("")
        print("The whole run took \(Format.duration(.now - started)).")
    }

    /// Seeding writes files without the store; before trusting it, check that they hold the
    /// very fields `setData(from:)` writes.
    static func checkSeedFormat(parent: String) throws {
        let folder = try TemporaryFolders.shared.make(in: parent, label: "format")
        defer { TemporaryFolders.shared.remove(folder) }
        let db = try Firestore(directory: URL(fileURLWithPath: folder + "/data"))
        var factory = BookFactory(seed: 7)
        for (id, book) in factory.makeBooks(50) {
            try db.collection("books").document(id).setData(from: book)
            let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/data/books/\(id).json")))
            func fields(_ bytes: [UInt8]) -> NSDictionary? {
                (try? JSONSerialization.jsonObject(with: Data(bytes))) as? NSDictionary
            }
            guard let stored = fields(written), stored == fields(BookFile.bytes(book)) else {
                throw BenchError("the seeding format differs from the store's for books/\(id):\n"
                                 + "store:  \(String(decoding: written, as: UTF8.self))\n"
                                 + "seeder: \(String(decoding: BookFile.bytes(book), as: UTF8.self))")
            }
        }
    }
}
