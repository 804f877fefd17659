// shelf-bench: benchmarks for DocumentStore, and the helper process the crash test kills.
//
//   swift run -c release shelf-bench [--sizes 1000,10000,100000]   print the figures
//   shelf-bench write-loop DIR                                       write forever (crash test)
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "write-loop" {
    WriteLoop.run(Array(arguments.dropFirst()))
} else {
    Benchmark.run(arguments)
}
