import DocumentStore
import Foundation

/// What `shelf-bench` was asked to measure, from its command line.
struct BenchOptions {
    /// Collection sizes, measured in this order.
    var sizes = [1_000, 10_000, 100_000]
    /// The folder in which a fresh temporary folder is made for each size; nil: the system's
    /// temporary folder (`TMPDIR`, or /tmp).
    var parent: String?
    /// The listeners' polling interval, in seconds (the store's default unless told).
    var interval = FirestoreSettings().pollingInterval
    /// Ticks over which the CPU time of idle polling is measured.
    var ticks = 40
    /// Trials per kind of external edit.
    var trials = 10
    /// Single writes into the full collection.
    var singleWrites = 20
    /// Longest projected time, in seconds, for writing one size durably one document at a time;
    /// beyond it the collection is seeded in bulk and only a sample is written durably.
    var writeBudget: Double = 240
    /// How many durable writes make that sample.
    var writeSample = 5_000

    static let usage = """
        usage: shelf-bench [--sizes 1000,10000,100000] [--dir PATH] [options]

          --sizes LIST         collection sizes, comma separated (default 1000,10000,100000)
          --dir PATH           where to make the temporary folders (default: TMPDIR or /tmp);
                               each size gets a fresh folder there, removed afterwards
          --interval SECONDS   the listeners' polling interval (default: the store's, 0.25)
          --ticks N            idle polling ticks to measure the CPU time over (default 40)
          --trials N           trials per kind of external edit (default 10)
          --write-budget SEC   longest projected time to write one size durably one by one;
                               beyond it the collection is seeded in bulk and a sample of
                               --write-sample durable writes is measured (default 240)
          --write-sample N     size of that sample (default 5000)
        """

    /// Parses the arguments; on a bad one, says what was expected and exits.
    static func parse(_ arguments: [String]) -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        func value(for flag: String) -> String {
            guard let value = rest.popFirst() else { fail("\(flag) needs a value") }
            return value
        }
        func number(for flag: String, _ text: String) -> Double {
            guard let number = Double(text), number > 0, number.isFinite else {
                fail("\(flag) expects a positive number, got \"\(text)\"")
            }
            return number
        }
        func count(for flag: String, _ text: String) -> Int {
            var digits = text.replacingOccurrences(of: "_", with: "")
            var scale = 1
            if digits.lowercased().hasSuffix("k") { scale = 1_000; digits.removeLast() }
            guard let count = Int(digits), count > 0 else {
                fail("\(flag) expects positive whole numbers (1000, 10_000 or 10k), got \"\(text)\"")
            }
            return count * scale
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--sizes":
                let list = value(for: flag)
                options.sizes = list.split(separator: ",").map { count(for: flag, String($0)) }
                if options.sizes.isEmpty { fail("--sizes expects at least one size, got \"\(list)\"") }
            case "--dir": options.parent = value(for: flag)
            case "--interval": options.interval = number(for: flag, value(for: flag))
            case "--ticks": options.ticks = count(for: flag, value(for: flag))
            case "--trials": options.trials = count(for: flag, value(for: flag))
            case "--write-budget": options.writeBudget = number(for: flag, value(for: flag))
            case "--write-sample": options.writeSample = count(for: flag, value(for: flag))
            case "-h", "--help":
                print(usage)
                exit(0)
            default: fail("unknown argument \"\(flag)\"")
            }
        }
        return options
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("shelf-bench: \(message)\n\n\(usage)\n".utf8))
        exit(2)
    }
}
