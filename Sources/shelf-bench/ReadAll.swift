import DocumentStore
import Foundation

/// `shelf-bench read-all DIR [COLLECTION] [RUNS]`: times `getDocuments()` of a whole collection
/// already on disk (the page cache is warm after the first run), printing each run and the
/// median, so this one figure can be profiled and compared on its own; then a listener's first
/// snapshot of it, three times.
enum ReadAll {
    static func run(_ arguments: [String]) {
        guard let directory = arguments.first else {
            FileHandle.standardError.write(Data("usage: shelf-bench read-all DIR [COLLECTION] [RUNS]\n".utf8))
            exit(2)
        }
        let collection = arguments.count > 1 ? arguments[1] : "books"
        let runs = arguments.count > 2 ? Arguments.number(arguments[2], for: "RUNS") : 5
        do {
            let settings = FirestoreSettings()
            settings.dispatchQueue = DispatchQueue(label: "shelf-bench.read-all")  // main waits below
            let db = try Firestore(directory: URL(fileURLWithPath: directory), settings: settings)
            var times: [Duration] = []
            var count = 0
            for run in 1...runs {
                let clock = ContinuousClock()
                let start = clock.now
                let snapshot = try waitForRead { db.collection(collection).getDocuments(completion: $0) }
                times.append(clock.now - start)
                count = snapshot.count
                print("run \(run): \(count) documents in \(Format.duration(times.last!))")
            }
            print("getDocuments() of \(count) documents: median \(Format.duration(Measure.median(times)))")
            // The same documents through a listener: its first snapshot is what an app shows.
            // And its first report of documents read, which an app can show before the rest.
            var firsts: [Duration] = []
            var slices: [Duration] = []
            for _ in 0..<3 {
                let loaded = DispatchSemaphore(value: 0)
                let start = ContinuousClock.now
                let firstSlice = Locked<Duration?>(nil)
                let registration = db.collection(collection).addSnapshotListener(progress: { progress in
                    firstSlice.withLock { if $0 == nil && !progress.documents.isEmpty { $0 = .now - start } }
                }) { _, _ in loaded.signal() }
                loaded.wait()
                firsts.append(.now - start)
                if let slice = firstSlice.withLock({ $0 }) { slices.append(slice) }
                registration.remove()
            }
            print("a listener's first snapshot: median \(Format.duration(Measure.median(firsts)))"
                  + " [runs: \(firsts.map(Format.duration).joined(separator: ", "))]")
            if !slices.isEmpty {
                print("its first documents read: median \(Format.duration(Measure.median(slices)))"
                      + " [runs: \(slices.map(Format.duration).joined(separator: ", "))]")
            }
        } catch {
            FileHandle.standardError.write(Data("shelf-bench read-all: \(error)\n".utf8))
            exit(1)
        }
    }
}
