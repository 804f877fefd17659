import Foundation

/// The C library's calls that Glibc's Swift module leaves out (`<sys/xattr.h>`, and `statx`,
/// `renameat2` and `preadv2`, declared only under `_GNU_SOURCE`), found when first used; nil
/// where the library lacks them.
enum LinuxCalls {
    typealias GetAttribute = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    typealias SetAttribute = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    typealias Statx = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) -> Int32
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    typealias ReadV2 = @convention(c) (Int32, UnsafePointer<iovec>, Int32, Int, Int32) -> Int

    static let getAttribute: GetAttribute? = symbol("fgetxattr")
    static let setAttribute: SetAttribute? = symbol("fsetxattr")
    private static let statx: Statx? = symbol("statx")
    /// `renameat2`, with `noReplace` (RENAME_NOREPLACE): fails with EEXIST rather than replace.
    static let renameNoReplace: RenameAt2? = symbol("renameat2")
    static let noReplace: UInt32 = 1
    /// `preadv2`, with `noWait` (RWF_NOWAIT): fails with EAGAIN rather than wait for the disk.
    static let readNoWait: ReadV2? = symbol("preadv2")
    static let noWait: Int32 = 8

    /// AT_EMPTY_PATH: `birthTime` of the open file `dirFD` itself, with an empty name.
    static let emptyPath: Int32 = 0x1000
    private static let birthTimeMask: UInt32 = 0x800  // STATX_BTIME
    /// Where `struct statx` keeps `stx_btime` (an Int64 of seconds, a UInt32 of nanoseconds).
    private static let birthTimeOffset = 80

    private static func symbol<T>(_ name: String) -> T? {
        guard let pointer = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }

    /// The file's birth time, when the kernel and the file system know it.
    static func birthTime(dirFD: Int32, name: String, flags: Int32) -> Timestamp? {
        guard let statx else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)  // struct statx's size
        return buffer.withUnsafeMutableBytes { raw -> Timestamp? in
            guard statx(dirFD, name, flags, birthTimeMask, raw.baseAddress!) == 0,
                  raw.load(as: UInt32.self) & birthTimeMask != 0 else { return nil }
            let seconds = raw.load(fromByteOffset: birthTimeOffset, as: Int64.self)
            let nanoseconds = raw.load(fromByteOffset: birthTimeOffset + 8, as: UInt32.self)
            guard nanoseconds < 1_000_000_000 else { return nil }
            return Timestamp(seconds: seconds, nanoseconds: Int32(nanoseconds))
        }
    }
}
