import Foundation

/// The kernel's queue of file events (Linux inotify), read without blocking from a watcher's
/// look, so a look learns which names in a folder changed instead of listing and `stat`ing the
/// folder to find out. One instance holds the watches of one `Watcher` (a collection group's
/// folders share one), since a process may open only a few instances.
///
/// An event wakes the watcher, `settle` after the first one, so another program's save shows
/// in milliseconds rather than at the next polling tick, an editor's save (a few events within
/// microseconds) is one look, and a flood of writes is looked at no more than `1 / settle`
/// times a second. Nothing here blocks: `take(_:)`, on the watcher's queue, drains what the
/// kernel queued since the last call and lets the next event wake it again. When the kernel's
/// queue overflowed, events were lost: `overflows` counts that, and a watcher that sees it
/// move looks at its whole folder once. Touched only on its watcher's queue.
final class FileEvents: @unchecked Sendable {
    /// A watched folder: the watch descriptor, and the inode it was added for (a folder
    /// replaced by another of the same name needs a new watch).
    struct Watch: Equatable {
        let descriptor: Int32
        let inode: UInt64
    }

    /// What one folder's watch reported since the last `take`.
    struct Changes {
        /// The names (raw bytes) of the entries created, deleted, renamed, written or changed.
        var names: Set<[UInt8]> = []
        /// The watch is gone (the folder was deleted or unmounted): watch it again.
        var watchRemoved = false
    }

    /// The inotify instance (closed once its read source is cancelled, when the watcher goes).
    let fd: Int32
    private var pending: [Int32: Changes] = [:]
    /// How many times the kernel's queue overflowed (or a test said it did).
    private(set) var overflows = 0
    private var dropNextDrain = false
    /// Room for hundreds of events a `read`; kept, so a quiet tick allocates nothing.
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Creations, deletions, renames in and out, writes, attribute changes (chmod, touch).
    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE
                                     | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)

    static let settle = DispatchTimeInterval.milliseconds(20)
    /// Readable when the kernel queued events; suspended from the first until they are drained.
    private let readable: DispatchSourceRead
    private var isWaking = false

    /// nil where inotify is unavailable (not Linux's, or the per-user limit of instances).
    /// Made on `watcher`'s queue, where its events wake it.
    init?(waking watcher: Watcher) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
        let queue = watcher.queue
        readable = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        readable.setEventHandler { [weak self, weak watcher] in
            guard let self, !isWaking else { return }
            isWaking = true
            readable.suspend()
            // Not once these events are gone with their queue (the watcher stopped).
            queue.asyncAfter(deadline: .now() + Self.settle) { [weak self, weak watcher] in
                if self != nil { watcher?.poll() }
            }
        }
        readable.setCancelHandler { close(fd) }
        readable.resume()
    }

    deinit {
        if isWaking { readable.resume() }  // a suspended source may not be let go
        readable.cancel()
    }

    /// Watches the folder open as `folderFD` (through /proc/self/fd, so the folder that was
    /// opened safely from the store's root is the one watched); nil when the kernel refuses,
    /// e.g. ENOSPC when the user's watches are used up.
    func watch(folder folderFD: Int32, inode: UInt64) -> Watch? {
        let descriptor = inotify_add_watch(fd, "/proc/self/fd/\(folderFD)", Self.mask)
        guard descriptor >= 0 else { return nil }
        pending[descriptor] = nil  // events of an earlier watch of the same folder are not news
        return Watch(descriptor: descriptor, inode: inode)
    }

    func unwatch(_ watch: Watch) {
        inotify_rm_watch(fd, watch.descriptor)
        pending[watch.descriptor] = nil
    }

    /// Everything queued for `watch` since the last call.
    func take(_ watch: Watch) -> Changes {
        drain()
        return pending.removeValue(forKey: watch.descriptor) ?? Changes()
    }

    /// For tests: the next drain loses what it reads and reports an overflow, as the kernel
    /// does when its queue is full.
    func simulateOverflow() { dropNextDrain = true }

    /// Reads the kernel's queue until it is empty (never blocks: IN_NONBLOCK).
    private func drain() {
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }  // EAGAIN: the queue is empty
            var offset = 0
            while offset + headerSize <= count {
                let (descriptor, eventMask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameStart = offset + headerSize
                offset = nameStart + length
                if eventMask & UInt32(IN_Q_OVERFLOW) != 0 {
                    overflows += 1
                    continue
                }
                var changes = pending[descriptor] ?? Changes()
                if eventMask & UInt32(IN_IGNORED | IN_UNMOUNT) != 0 { changes.watchRemoved = true }
                if length > 0 {
                    let name = buffer[nameStart..<nameStart + length].prefix { $0 != 0 }  // NUL padded
                    changes.names.insert(Array(name))
                }
                pending[descriptor] = changes
            }
        }
        if dropNextDrain {
            dropNextDrain = false
            pending = [:]
            overflows += 1
        }
        if isWaking {
            isWaking = false
            readable.resume()
        }
    }
}
