import Foundation

/// Document files asked for ahead when they are not in memory: a read of many files the page
/// cache does not hold (after a boot, or once other work pushed them out) waits on the disk for
/// each in turn, two at a time on two cores (100,000 books: 4.9 s). A few threads that only open
/// each file and have the kernel start reading it (`POSIX_FADV_WILLNEED`), ahead of the parsers,
/// keep many reads in flight instead (1.3 s). Started only when a sample of the files is not
/// cached: on a warm cache the opens would cost a third of the read's time and gain nothing.
final class ColdFilePrefetch: @unchecked Sendable {
    static let threads = 4
    /// Files looked at to tell whether the read is cold, spread across it.
    static let samples = 8
    /// Fewer files than this wait little even when cold: they are read as they are.
    static let minimumFiles = 512

    private struct Progress {
        var next = 0
        var stopped = false
        var asked = 0
    }
    private let progress = Locked(Progress())
    private let running = DispatchGroup()

    /// Starts asking for the `count` files that `name` writes (as a NUL-terminated name, into a
    /// buffer it may reuse) in the folder `dirFD`, when any of a sample of them is not in the page
    /// cache; nil when all are, or when there are too few to be worth it.
    static func startIfCold(count: Int, in dirFD: Int32, name: @escaping @Sendable (Int, inout [UInt8]) -> Void) -> ColdFilePrefetch? {
        guard count >= minimumFiles, let readNoWait = LinuxCalls.readNoWait else { return nil }
        var buffer: [UInt8] = []
        let cold = (0..<samples).contains { sample in
            name(sample * count / samples, &buffer)
            let fd = buffer.withUnsafeBytes { openat(dirFD, $0.baseAddress!.assumingMemoryBound(to: CChar.self), openFlags) }
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var byte: UInt8 = 0
            return withUnsafeMutablePointer(to: &byte) { pointer in
                var vector = iovec(iov_base: UnsafeMutableRawPointer(pointer), iov_len: 1)
                return readNoWait(fd, &vector, 1, 0, LinuxCalls.noWait) < 0 && errno == EAGAIN
            }
        }
        return cold ? ColdFilePrefetch(count: count, in: dirFD, name: name) : nil
    }

    /// Not following links, and not waiting for a FIFO's writer.
    private static let openFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC

    private init(count: Int, in dirFD: Int32, name: @escaping @Sendable (Int, inout [UInt8]) -> Void) {
        for _ in 0..<Self.threads {
            running.enter()
            Thread.detachNewThread { [self] in
                defer { running.leave() }
                var buffer: [UInt8] = []
                while let index = takeNext(below: count) {
                    name(index, &buffer)
                    let fd = buffer.withUnsafeBytes { openat(dirFD, $0.baseAddress!.assumingMemoryBound(to: CChar.self), Self.openFlags) }
                    guard fd >= 0 else { continue }
                    posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED)
                    close(fd)
                }
            }
        }
    }

    private func takeNext(below count: Int) -> Int? {
        progress.withLock { progress in
            guard !progress.stopped, progress.next < count else { return nil }
            defer { progress.next += 1; progress.asked += 1 }
            return progress.next
        }
    }

    /// Stops the threads and waits for them (each may be waiting for one file's open), so none
    /// touches the folder once its descriptor is closed. Returns how many files were asked for.
    func finish() -> Int {
        progress.withLock { $0.stopped = true }
        running.wait()
        return progress.withLock { $0.asked }
    }
}
