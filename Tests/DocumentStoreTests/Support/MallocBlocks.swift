import Foundation

/// glibc's `malloc_usable_size` of a block (its header is not in Swift's Glibc module): the
/// bytes a request was given, which is what a million of them cost. glibc adds 8 bytes to each
/// request and rounds to 16, so a request of 57 bytes is served as one of 72 usable.
func mallocUsableSize(_ block: UnsafeMutableRawPointer) -> Int {
    typealias UsableSize = @convention(c) (UnsafeMutableRawPointer) -> Int
    let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_usable_size")!
    return unsafeBitCast(symbol, to: UsableSize.self)(block)
}

/// The usable size of an object's block.
func mallocUsableSize(of object: AnyObject) -> Int {
    mallocUsableSize(Unmanaged.passUnretained(object).toOpaque())
}

/// glibc's `malloc_trim(0)`: merges free blocks, so the larger ones earlier tests freed are not
/// handed to the next small requests (a request is served by a larger block that cannot be split).
func mallocTrim() {
    typealias Trim = @convention(c) (Int) -> Int32
    let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim")!
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}
