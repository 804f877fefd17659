import DocumentStore
import Foundation
import XCTest

/// Records what a snapshot listener receives, and waits for it with XCTest expectations
/// (generous timeouts: the tests assert what arrives, never how fast).
final class ListenerRecorder<Snapshot>: @unchecked Sendable {
    enum Event {
        case snapshot(Snapshot)
        case error(Error)
    }

    private let lock = NSLock()
    private var recorded: [Event] = []
    private var waiters: [(isDone: ([Event]) -> Bool, expectation: XCTestExpectation)] = []

    /// Pass this to `addSnapshotListener`.
    var listener: (Snapshot?, Error?) -> Void {
        { [self] snapshot, error in
            if let snapshot { record(.snapshot(snapshot)) } else { record(.error(error ?? RecorderFailure.neither)) }
        }
    }

    private func record(_ event: Event) {
        let ready = lock.withLock { () -> [XCTestExpectation] in
            recorded.append(event)
            let done = waiters.filter { $0.isDone(recorded) }.map(\.expectation)
            waiters.removeAll { waiter in done.contains { $0 === waiter.expectation } }
            return done
        }
        for expectation in ready { expectation.fulfill() }
    }

    var events: [Event] { lock.withLock { recorded } }

    var snapshots: [Snapshot] {
        events.compactMap { if case .snapshot(let s) = $0 { return s } else { return nil } }
    }

    var errors: [Error] {
        events.compactMap { if case .error(let e) = $0 { return e } else { return nil } }
    }

    /// Waits until `isDone` holds for everything recorded so far; false (and a test failure)
    /// after `timeout`.
    @discardableResult
    func wait(timeout: TimeInterval = 10, _ what: String, file: StaticString = #filePath, line: UInt = #line,
              until isDone: @escaping ([Event]) -> Bool) -> Bool {
        let expectation = XCTestExpectation(description: what)
        let alreadyDone = lock.withLock { () -> Bool in
            if isDone(recorded) { return true }
            waiters.append((isDone, expectation))
            return false
        }
        if alreadyDone { return true }
        let result = XCTWaiter().wait(for: [expectation], timeout: timeout)
        if result != .completed {
            XCTFail("timed out waiting for \(what); received \(events.count) events", file: file, line: line)
            lock.withLock { waiters.removeAll { $0.expectation === expectation } }
            return false
        }
        return true
    }

    /// Waits for the `count`th snapshot and returns it (nil, with a failure, if it never comes).
    func snapshot(_ count: Int, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> Snapshot? {
        let arrived = wait(timeout: timeout, "snapshot #\(count)", file: file, line: line) { events in
            events.filter { if case .snapshot = $0 { return true } else { return false } }.count >= count
        }
        guard arrived else { return nil }
        return snapshots[count - 1]
    }

    /// Waits until the latest snapshot satisfies `isDone`, and returns it.
    @discardableResult
    func latest(_ what: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
                where isDone: @escaping (Snapshot) -> Bool) -> Snapshot? {
        let arrived = wait(timeout: timeout, what, file: file, line: line) { events in
            for event in events.reversed() {
                if case .snapshot(let snapshot) = event { return isDone(snapshot) }
            }
            return false
        }
        return arrived ? snapshots.last : nil
    }

    /// Waits for the `count`th error.
    func error(_ count: Int, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> Error? {
        let arrived = wait(timeout: timeout, "error #\(count)", file: file, line: line) { events in
            events.filter { if case .error = $0 { return true } else { return false } }.count >= count
        }
        return arrived ? errors[count - 1] : nil
    }

    /// Fails unless the next event is the probe's: `probe` makes a change this listener is
    /// told of, and `isProbe` knows its snapshot. Events come in order, on one queue, so what
    /// was coming for anything done before the probe would come first, or in the same
    /// snapshot: once the probe's is here, nothing else is coming. A quiet wait could only
    /// show that nothing came yet.
    func expectNothing(_ what: String, before probe: () throws -> Void, isProbe: (Snapshot) -> Bool,
                       file: StaticString = #filePath, line: UInt = #line) rethrows {
        let before = events.count
        try probe()
        guard wait("the probe, after \(what)", file: file, line: line, until: { $0.count > before }) else { return }
        let next = events[before]
        if case .snapshot(let snapshot) = next, isProbe(snapshot) { return }
        XCTFail("\(what): expected nothing before the probe, received \(Self.describe(next))", file: file, line: line)
    }

    /// Fails if this listener, removed or failed for good, was sent anything since it had
    /// `count` events: `witness` returns once a listener that joined later was sent what changed
    /// meanwhile, and `drain` runs the callbacks queued by then, so what was coming has come.
    func expectNothingAfter(_ count: Int, _ what: String, witness: () throws -> Void, drain: () -> Void,
                            file: StaticString = #filePath, line: UInt = #line) rethrows {
        try witness()
        drain()
        let after = events
        if after.count != count {
            XCTFail("\(what): expected nothing, received \(after[count...].map(Self.describe))", file: file, line: line)
        }
    }

    static func describe(_ event: Event) -> String {
        switch event {
        case .snapshot(let snapshot as QuerySnapshot): return describe(snapshot)
        case .snapshot(let snapshot as DocumentSnapshot): return "document \(snapshot.reference.path) exists: \(snapshot.exists)"
        case .snapshot(let snapshot): return "\(snapshot)"
        case .error(let error): return "error \(error)"
        }
    }

    static func describe(_ snapshot: QuerySnapshot) -> String {
        "[" + snapshot.documentChanges.map(describe).joined(separator: ", ") + "]"
    }

    static func describe(_ change: DocumentChange) -> String {
        let index = { (i: UInt) in i == UInt(NSNotFound) ? "-" : "\(i)" }
        return "\(change.type) \(change.document.documentID) \(index(change.oldIndex))->\(index(change.newIndex))"
    }
}

enum RecorderFailure: Error { case neither }

/// A change as the tests write it out: type, document id, old and new index (nil for NSNotFound).
struct Change: Equatable, CustomStringConvertible {
    let type: DocumentChangeType
    let id: String
    let oldIndex: Int?
    let newIndex: Int?

    init(_ type: DocumentChangeType, _ id: String, _ oldIndex: Int?, _ newIndex: Int?) {
        self.type = type
        self.id = id
        self.oldIndex = oldIndex
        self.newIndex = newIndex
    }

    init(_ change: DocumentChange) {
        let index = { (i: UInt) in i == UInt(NSNotFound) ? nil : Int(i) }
        self.init(change.type, change.document.documentID, index(change.oldIndex), index(change.newIndex))
    }

    var description: String { "\(type) \(id) \(oldIndex.map(String.init) ?? "-")->\(newIndex.map(String.init) ?? "-")" }
}

extension QuerySnapshot {
    var changes: [Change] { documentChanges.map(Change.init) }
    var ids: [String] { documents.map(\.documentID) }
}
