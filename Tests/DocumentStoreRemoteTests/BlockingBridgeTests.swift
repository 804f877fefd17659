@testable import DocumentStore
import Foundation
import XCTest

/// Where the store's synchronous calls meet async code (`BlockingBridge`): answers come back
/// whatever blocks Swift's cooperative threads, a timeout ends the wait, and a lent resource
/// is used on the caller's thread and always given back.
final class BlockingBridgeTests: XCTestCase {
    private struct Refused: Error {}

    func testACallReturnsTheWorksValueAndRethrowsItsError() {
        XCTAssertEqual(try BlockingBridge.call { try await Task.sleep(for: .milliseconds(1)); return 42 }, 42)
        XCTAssertThrowsError(try BlockingBridge.call { () async throws -> Int in throw Refused() }) { XCTAssertTrue($0 is Refused) }
    }

    /// More blocked callers than Swift has cooperative threads, each blocking one of them: the
    /// work they wait for still runs, on the bridge's own threads.
    func testCallersBlockingEveryCooperativeThreadStillGetTheirAnswers() async throws {
        let callers = ProcessInfo.processInfo.activeProcessorCount * 4
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<callers {
                group.addTask { try BlockingBridge.call { try await Task.sleep(for: .milliseconds(5)); return index } }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(sum, (0..<callers).reduce(0, +))
    }

    /// More blocked callers than Dispatch's global queue has threads (as `onIOQueue`'s are):
    /// the work they wait for runs on the bridge's own threads, which no caller can block (on
    /// Dispatch's, it would wait until Dispatch adds threads, seconds later), and is answered.
    func testCallersBlockingEveryDispatchThreadStillGetTheirAnswers() {
        let callers = ProcessInfo.processInfo.activeProcessorCount * 8
        let answered = Locked(0)
        let elsewhere = Locked(0)
        let group = DispatchGroup()
        for index in 0..<callers {
            DispatchQueue.global().async(group: group) {
                let answer = try? BlockingBridge.call {
                    if !BlockingBridge.executor.isCurrentThread { elsewhere.withLock { $0 += 1 } }
                    return await Self.answeredByAnotherThread(index)
                }
                if answer == index { answered.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "every caller was answered")
        XCTAssertEqual(answered.withLock { $0 }, callers)
        XCTAssertEqual(elsewhere.withLock { $0 }, 0, "calls whose work ran off the bridge's threads")
    }

    /// Async work whose answer comes from a thread of its own, as a network library's does
    /// (PostgresNIO's event loops), not from a timer of Dispatch's global queue.
    private static func answeredByAnotherThread(_ value: Int) async -> Int {
        await withCheckedContinuation { answer in Thread.detachNewThread { answer.resume(returning: value) } }
    }

    func testACallThatTakesTooLongTimesOutAndItsWorkIsCancelled() {
        let cancelled = expectation(description: "the work is cancelled")
        XCTAssertThrowsError(try BlockingBridge.call(timeout: .milliseconds(50)) {
            do { try await Task.sleep(for: .seconds(30)) } catch { cancelled.fulfill() }
        }) { XCTAssertTrue($0 is BlockingBridge.TimedOut, "\($0)") }
        wait(for: [cancelled], timeout: 10)
    }

    /// The body runs on the caller's thread, and the lender's scope ends only once it returned.
    func testALeaseRunsTheBodyOnTheCallersThreadAndGivesTheResourceBack() throws {
        let given = Locked<[String]>([])
        let back = expectation(description: "the lender's scope ended")
        let caller = Thread.current
        let value = try BlockingBridge.lease({ use in
            await use("connection")
            given.withLock { $0.append("back") }
            back.fulfill()
        }) { (resource: String) -> Int in
            XCTAssertTrue(Thread.current === caller, "the caller's own thread")
            XCTAssertEqual(resource, "connection")
            XCTAssertEqual(given.withLock { $0 }, [], "still lent while the body runs")
            return 7
        }
        XCTAssertEqual(value, 7)
        wait(for: [back], timeout: 10)
    }

    func testALenderThatFailsBeforeLendingFailsTheLease() {
        XCTAssertThrowsError(try BlockingBridge.lease({ (_: @escaping @Sendable (Int) async -> Void) in throw Refused() }) { _ in
            XCTFail("nothing was lent")
        }) { XCTAssertTrue($0 is Refused, "\($0)") }
    }

    /// A caller that gives up waiting (`stillWaiting` says why) gets that error, and a
    /// resource lent after all goes straight back rather than being held for good.
    func testACallerThatGivesUpWaitingLeavesNothingHeld() {
        let lendNow = DispatchSemaphore(value: 0)
        let returned = expectation(description: "the late resource was given back")
        XCTAssertThrowsError(try BlockingBridge.lease({ use in
            lendNow.wait()
            await use(1)
            returned.fulfill()
        }, patience: .milliseconds(20), stillWaiting: { Refused() }) { _ in
            XCTFail("the caller gave up before the resource came")
        }) { XCTAssertTrue($0 is Refused, "\($0)") }
        lendNow.signal()
        wait(for: [returned], timeout: 10)
    }
}
