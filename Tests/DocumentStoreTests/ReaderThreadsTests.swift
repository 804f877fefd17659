@testable import DocumentStore
import Foundation
import XCTest

/// Files are read on the store's own reader threads, the same ones each time, every index once.
final class ReaderThreadsTests: XCTestCase {
    private func threadsAndIndices(_ iterations: Int) -> (threads: Set<ObjectIdentifier>, indices: [Int]) {
        let seen = Locked((threads: Set<ObjectIdentifier>(), indices: [Int]()))
        ReaderThreads.shared.perform(iterations: iterations) { index in
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
        ReaderThreads.shared.perform(iterations: 2) { outer in
            ReaderThreads.shared.perform(iterations: 3) { index in inner.withLock { $0.append(outer * 10 + index) } }
        }
        XCTAssertEqual(inner.withLock { $0 }.sorted(), [0, 1, 2, 10, 11, 12])
    }

    func testOneIterationRunsOnTheCaller() {
        XCTAssertEqual(threadsAndIndices(1).threads, [ObjectIdentifier(Thread.current)])
    }
}
