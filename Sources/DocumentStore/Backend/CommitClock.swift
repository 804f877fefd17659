import Foundation

/// The time of a commit: Firestore gives every write of one commit the same `commit_time`, and
/// a `serverTimestamp()` (`REQUEST_TIME`) of the commit is that time. Microseconds, as
/// Firestore keeps them, and later than any commit made before in this process, so two commits
/// never share a time. A backend asks for it while it holds the commit's documents locked.
package enum CommitClock {
    private static let last = Locked(Timestamp(seconds: 0, nanoseconds: 0))

    /// The time a read made now sees: every commit made before it is at it or earlier, and
    /// every later one after it, so a read at this time (`read_time`) sees exactly those before.
    package static func readTime() -> Timestamp {
        let now = Timestamp().truncatedToMicroseconds
        return last.withLock { last in
            last = max(now, last)
            return last
        }
    }

    package static func next() -> Timestamp {
        let now = Timestamp().truncatedToMicroseconds
        return last.withLock { last in
            last = now > last ? now : last.addingMicrosecond
            return last
        }
    }
}

extension Timestamp {
    /// The next instant Firestore can hold.
    var addingMicrosecond: Timestamp {
        nanoseconds >= 999_999_000 ? Timestamp(seconds: seconds + 1, nanoseconds: nanoseconds - 999_999_000)
            : Timestamp(seconds: seconds, nanoseconds: nanoseconds + 1000)
    }
}
