/// The summary: three tables with one row per size, notes on anything that misses an aim,
/// and a legend.
struct Report {
    let results: [SizeResult]
    let options: BenchOptions

    private var interval: Duration { .nanoseconds(Int64(options.interval * 1e9)) }

    var text: String {
        var out: [String] = ["Summary", ""]
        out.append("Writing and reading (setData(from:) is durable: temp file, fsync, rename, fsync of the folder)")
        var io = Table([["documents"], ["write all", "(durable)"], ["per write", "median"], ["one more", "median of \(options.singleWrites)"],
                        ["getDocuments()", "median of 3"], ["+ decode", "as Book"], ["peak", "memory"]])
        for r in results {
            let writeAll: String
            switch r.writing {
            case .durable: writeAll = Format.duration(r.writeAll)
            case .sampled: writeAll = "~" + Format.duration(r.writeAll) + " est.*"
            }
            io.add([Format.count(r.size), writeAll, Format.duration(Measure.median(r.writes)), Format.duration(Measure.median(r.oneMore)),
                    Format.duration(Measure.median(r.reads)) + mark(readMisses(r)), Format.duration(r.decode), Format.bytes(r.peakMemory)])
        }
        out.append(io.render())
        for r in results {
            if case .sampled(let sample, let seeding) = r.writing {
                out.append("  * \(Format.count(r.size)): extrapolated from \(Format.count(sample)) durable writes into the nearly full"
                           + " collection; the other files were seeded in bulk (\(Format.duration(seeding)), not a write figure).")
            }
        }

        out.append("")
        out.append("Listening (one collection listener; idle = nothing changes; CPU = getrusage user + sys of the whole process)")
        var listening = Table([["documents"], ["first", "snapshot"], ["idle tick", "CPU, net"], ["share of", "a core, net"],
                               ["first minute", "share, net"], ["no listener", "share"], ["CPU per", "external change"]])
        for r in results {
            let net = r.steady.share - r.baseline.share
            listening.add([Format.count(r.size), Format.duration(Measure.median(r.firstSnapshots)),
                           Format.duration(.nanoseconds(Int64(net * options.interval * 1e9))),
                           Format.percent(net) + mark(idleMisses(r)), Format.percent(r.firstMinute.share - r.baseline.share),
                           Format.percent(r.baseline.share), Format.duration(r.cpuPerChange)])
        }
        out.append(listening.render())

        out.append("")
        out.append("External edit → delivery (median / max of \(options.trials) trials each)")
        var latency = Table([["documents"], ["new file", "(temp + rename)"], ["replaced", "by rename"], ["deleted", ""],
                             ["in place", "median"], ["in place", "max"], ["worst-case", "sweep"]])
        for r in results {
            func pair(_ delays: [Duration], _ kind: String) -> String {
                guard !delays.isEmpty else { return "none" }
                let missed = r.missed[kind] ?? 0
                let late = delays.contains { $0 > interval * 2 } || missed > 0
                return Format.duration(Measure.median(delays)) + " / " + Format.duration(delays.max()!) + mark(late)
            }
            let sweepTicks = SizeRun.sweepTicks(r.size)
            latency.add([Format.count(r.size), pair(r.created, "create"), pair(r.replaced, "replace"), pair(r.deleted, "delete"),
                         r.editedInPlace.isEmpty ? "none" : Format.duration(Measure.median(r.editedInPlace)),
                         r.editedInPlace.isEmpty ? "none" : Format.duration(r.editedInPlace.max()!) + mark(inPlaceLate(r)),
                         "\(sweepTicks) × \(Format.duration(interval)) = \(Format.duration(r.sweepWorst))"])
        }
        out.append(latency.render())

        let notes = self.notes
        if !notes.isEmpty {
            out.append("")
            out.append("Misses (marked !)")
            out += notes.map { "  ! " + $0 }
        }

        out.append("")
        out.append(legend)
        return out.joined(separator: "\n")
    }

    private func mark(_ miss: Bool) -> String { miss ? " !" : "" }

    private func readMisses(_ r: SizeResult) -> Bool { r.size <= 10_000 && Measure.median(r.reads) >= .seconds(1) * r.size / 10_000 }
    private func idleMisses(_ r: SizeResult) -> Bool { r.size <= 10_000 && r.steady.share - r.baseline.share >= 0.01 }
    private func inPlaceLate(_ r: SizeResult) -> Bool {
        guard let worst = r.editedInPlace.max() else { return true }
        let bound = r.size <= SizeRun.statBudget ? interval * 2 : r.sweepWorst + interval * 2
        return worst > bound || (r.missed["in place"] ?? 0) > 0
    }

    private var notes: [String] {
        var notes: [String] = []
        for r in results {
            let size = Format.count(r.size)
            if readMisses(r) { notes.append("\(size): getDocuments() takes \(Format.duration(Measure.median(r.reads))); the aim is well under 1 s for 10,000.") }
            if idleMisses(r) {
                notes.append("\(size): an idle listener costs \(Format.percent(r.steady.share - r.baseline.share)) of a core; the aim is under 1 % at 10,000.")
            }
            for (kind, delays) in [("create", r.created), ("replace", r.replaced), ("delete", r.deleted)] {
                let late = delays.filter { $0 > interval * 2 }
                if !late.isEmpty {
                    notes.append("\(size): \(late.count) of \(delays.count) \(kind) deliveries took longer than two intervals"
                                 + " (\(Format.duration(interval * 2))), up to \(Format.duration(late.max()!)).")
                }
                if let missed = r.missed[kind], missed > 0 { notes.append("\(size): \(missed) \(kind) edits were not delivered in time.") }
            }
            if inPlaceLate(r) {
                notes.append("\(size): an in-place edit took \(r.editedInPlace.max().map(Format.duration) ?? "forever")"
                             + ", beyond the sweep bound; \(r.missed["in place"] ?? 0) not delivered in time.")
            }
        }
        return notes
    }

    private var legend: String {
        """
        Legend
          write all        N documents written one by one with setData(from:) into an empty collection, wall time;
                           each write is durable (temp file, fsync, rename, fsync of the folder) before it returns.
                           "~… est." is an extrapolation from a measured sample, marked *.
          per write        median of those single writes (ContinuousClock around each call).
          one more         one new document written into the full collection, median of \(options.singleWrites).
          getDocuments()   the async getDocuments() of the whole collection, median of 3 runs, page cache warm
                           (files just written); + decode: mapping every document with data(as: Book.self), once.
          peak memory      highest resident memory (VmHWM, reset with /proc/self/clear_refs before each size),
                           so it includes the Swift runtime and the book array the benchmark keeps.
          first snapshot   addSnapshotListener to its first callback (every document .added), median of 3.
          idle tick CPU    with one listener and nothing changing, process CPU time over \(options.ticks) ticks of
                           \(Format.duration(interval)) after the watcher's 60 s hot window, minus the same with no listener,
                           per tick; share of a core = that CPU time / wall time.
          first minute     the same within the first minute after the first snapshot, while the watcher still
                           treats every document as recently changed (it stats all of them each tick).
          no listener      the baseline: the process idle with the store open and no listener.
          CPU per change   process CPU time during the create, replace and delete trials below, minus the
                           steady idle rate over the same wall time, per change (the watcher's rescans,
                           the delivery, and the benchmark's own few system calls).
          new file …       delay from the system call that makes an external change visible (rename, unlink,
                           pwrite) to the listener's callback with that change; each trial starts at a random
                           phase of the polling cycle. New file: <id>.json.tmp written, renamed to <id>.json.
                           Replaced: the same over an existing document. Deleted: unlink. Aim: within two
                           intervals (\(Format.duration(interval * 2))) at any size.
          in place         the digits of numberOfPages overwritten with pwrite (same inode, same size), as an
                           editor saving in place; edits start 2.4–4.4 intervals apart and may overlap in large
                           collections, each timed from its own write. Found by the rotating sweep, so the delay
                           depends on where the sweep is: at most about the worst-case sweep.
          worst-case sweep ticks to stat every file (1 up to 1,000 documents, then ceil(N / 500)) × interval:
                   the longest an in-place edit waits to be stat'ed.
          !                misses an aim or a bound (see Misses).
        """
    }
}
