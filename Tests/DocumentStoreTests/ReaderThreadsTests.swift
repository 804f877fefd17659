@testable import DocumentStore
import Foundation
import XCTest

/// Files are read on the store's own reader threads, the same ones each time, every index once.
final class ReaderThreadsTests: XCTestCase {
    private func threadsAndIndices(_ iterations: Int) -> (threads: Set<ObjectIdentifier>, indices: [Int]) {
        let seen = Locked((threads: Set<ObjectIdentifier>(), indices: [Int]()))
        ReaderThreads.shared.perform(iterations: iterations, state: {}) { index, _ in
            seen.withLock {
                $0.threads.insert(ObjectIdentifier(Thread.current))
                $0.indices.append(index)
            }
        }
        return seen.withLock { $0 }
    }

    func testEveryIndexOnceOnTheSameThreadsEachTime() {
        let first = threadsAndIndices(200)
        XCTAssertEqual(first.indices.sorted(), Array(0..<200))
        XCTAssertFalse(first.threads.contains(ObjectIdentifier(Thread.current)), "the caller waits, the readers read")
        var all = first.threads
        for _ in 0..<5 { all.formUnion(threadsAndIndices(200).threads) }
        XCTAssertLessThanOrEqual(all.count, ProcessInfo.processInfo.activeProcessorCount)
    }

    func testACallFromAReaderRunsOnItInsteadOfWaitingForItself() {
        let inner = Locked([Int]())
        ReaderThreads.shared.perform(iterations: 2, state: {}) { outer, _ in
            ReaderThreads.shared.perform(iterations: 3, state: {}) { index, _ in inner.withLock { $0.append(outer * 10 + index) } }
        }
        XCTAssertEqual(inner.withLock { $0 }.sorted(), [0, 1, 2, 10, 11, 12])
    }

    /// A parser's shapes and shared arrays serve every file a thread reads, not only a task's.
    func testEachThreadMakesItsStateOnceAndCarriesItThroughItsIterations() {
        let made = Locked(0)
        let callsSeen = Locked([Int]())
        ReaderThreads.shared.perform(iterations: 300, state: { made.withLock { $0 += 1 }; return 0 }) { _, calls in
            calls += 1
            callsSeen.withLock { $0.append(calls) }
        }
        let firstCalls = callsSeen.withLock { $0 }.filter { $0 == 1 }.count
        XCTAssertEqual(callsSeen.withLock { $0.count }, 300)
        XCTAssertLessThanOrEqual(made.withLock { $0 }, ProcessInfo.processInfo.activeProcessorCount)
        XCTAssertLessThanOrEqual(firstCalls, made.withLock { $0 }, "every call but each thread's first sees the state its last call left")
    }

    func testOneIterationRunsOnTheCaller() {
        XCTAssertEqual(threadsAndIndices(1).threads, [ObjectIdentifier(Thread.current)])
    }
}
