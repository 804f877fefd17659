import Foundation

/// How a batch's applied files are made durable before its journal is removed: one barrier for
/// the whole batch, not one per document.
///
/// - `syncfs` (the default): one `syncfs(2)` on the store's file system. Writes back every dirty
///   page of that file system, so it costs more when other programs write a lot there, but one
///   system call covers any number of files and folders.
/// - `fsyncEach`: `fsync` of every file written and every folder touched; what a portable
///   program does, and on ext4 each one can wait for a journal commit.
/// - `sync`: `sync(2)`, every file system of the machine; the fallback when `syncfs` is missing.
///
/// `SHELF_DURABILITY_BARRIER=syncfs|fsync-each|sync` in the environment chooses another one, so
/// `shelf-bench` can compare them; the default is right for everything else.
enum DurabilityBarrier: String, Sendable, CaseIterable {
    case syncfs
    case fsyncEach = "fsync-each"
    case sync

    static let chosen: DurabilityBarrier = {
        if let name = ProcessInfo.processInfo.environment["SHELF_DURABILITY_BARRIER"],
           let barrier = DurabilityBarrier(rawValue: name) {
            return barrier
        }
        return syncfsFunction == nil ? .sync : .syncfs
    }()

    /// `syncfs` is a GNU extension the Glibc module does not show; found at run time.
    private typealias SyncFS = @convention(c) (Int32) -> Int32
    private static let syncfsFunction: SyncFS? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: SyncFS.self)
    }()

    /// `fsyncEach` syncs each file as it is written (before its rename), the others do not.
    var syncsEachFile: Bool { self == .fsyncEach }

    /// Makes everything written so far durable; `folders` (open descriptors of the folders the
    /// batch touched) are used by `fsyncEach` only. Returns 0, or the errno of the failure.
    func finish(rootFD: Int32, folders: [Int32]) -> Int32 {
        switch self {
        case .syncfs:
            if let syncfs = Self.syncfsFunction {
                return syncfs(rootFD) == 0 ? 0 : errno
            }
            Glibc.sync()
            return 0
        case .fsyncEach:
            for fd in folders where fsync(fd) != 0 { return errno }
            return 0
        case .sync:
            Glibc.sync()
            return 0
        }
    }
}
