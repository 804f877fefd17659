// shelf-bench: benchmarks for DocumentStore, and the helper processes its tests start.
//
//   swift run -c release shelf-bench [--sizes 1000,10000,100000]   print the figures
//   swift run -c release shelf-bench batches                        batch and transaction figures
//   swift run -c release shelf-bench crash-run [--kills 1000]       SIGKILL batch writers, check
//   shelf-bench write-loop DIR [--batch N]                          write forever (crash tests)
//   shelf-bench read-loop DIR --batch N --until PATH                check batches while they are written
//   shelf-bench queries DIR [RUNS]                                   query figures on a books collection
//   shelf-bench read-all DIR [COLLECTION] [RUNS]                     time getDocuments() of a collection
//   shelf-bench pg DIR-or-URL COUNT [RUNS]                        server figures (a folder, PostgreSQL, a Firestore server)
//   shelf-bench rate DIR --restaurant PATH --count N --threads T   the quickstart's rating transaction
let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
switch arguments.first {
case "write-loop": WriteLoop.run(rest)
case "read-loop": ReadLoop.run(rest)
case "rate": RatingLoop.run(rest)
case "batches": BatchBench.run(rest)
case "batch-commits": BatchBench.runCommits(rest)
case "crash-run": CrashRun.run(rest)
case "read-all": ReadAll.run(rest)
case "queries": QueryBench.run(rest)
case "pg": ServerBench.run(rest)
default: Benchmark.run(arguments)
}
