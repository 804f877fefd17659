/// The values of a `Fields`, in one block of memory: numbers as their 8 bytes and strings as
/// their UTF-8 bytes, each string made again when read; other values (arrays, maps, bytes,
/// references, …) as themselves.
///
/// At a million documents each block counts: an array of a book's four values asks for 128
/// bytes and its 23-byte title for a string of its own of 64, which glibc serves as blocks of
/// 144 and 80; packed, the same book asks for 128 in all. A string longer than 15 bytes read
/// from here is allocated as it is read (most reads are a sort key's or a frame's cell).
///
/// The tail, in 8-byte words: one 32-bit entry a value (its slot's offset in words, shifted
/// left by two, and its `Kind`), then the slots. A block is never changed once made (`Fields`
/// is sent across threads with it).
final class PackedValues: ManagedBuffer<Int, UInt64> {
    /// What a slot holds, in an entry's two low bits.
    private enum Kind {
        /// A `FirestoreValue` as it is, three words.
        static let value: UInt32 = 0
        /// A word of the byte count, then the bytes, padded to a word.
        static let string: UInt32 = 1
        static let integer: UInt32 = 2
        static let double: UInt32 = 3
    }

    /// Never changed once made, as no block is: `Fields` shares them across threads.
    nonisolated(unsafe) static let empty = PackedValues.make([])

    static func make(_ values: some Collection<FirestoreValue>) -> PackedValues {
        let entryWords = (values.count + 1) / 2
        var slotWords = 0
        for value in values { slotWords += words(of: value) }
        let buffer = unsafeDowncast(create(minimumCapacity: entryWords + slotWords) { _ in values.count }, to: PackedValues.self)
        buffer.withUnsafeMutablePointerToElements { tail in
            var slot = entryWords
            for (index, value) in values.enumerated() {
                let place = UnsafeMutableRawPointer(tail + slot)
                let kind: UInt32
                switch value {
                case .integer(let number):
                    kind = Kind.integer
                    place.storeBytes(of: UInt64(bitPattern: number), as: UInt64.self)
                case .double(let number):
                    kind = Kind.double
                    place.storeBytes(of: number.bitPattern, as: UInt64.self)
                case .string(var text):
                    kind = Kind.string
                    text.withUTF8 { bytes in
                        place.storeBytes(of: UInt64(bytes.count), as: UInt64.self)
                        if let base = bytes.baseAddress { (place + 8).copyMemory(from: base, byteCount: bytes.count) }
                    }
                default:
                    kind = Kind.value
                    place.initializeMemory(as: FirestoreValue.self, repeating: value, count: 1)
                }
                UnsafeMutableRawPointer(tail).storeBytes(of: UInt32(slot) << 2 | kind, toByteOffset: index * 4, as: UInt32.self)
                slot += words(of: value)
            }
        }
        return buffer
    }

    /// The words a value's slot takes.
    private static func words(of value: FirestoreValue) -> Int {
        switch value {
        case .integer, .double: return 1
        case .string(let text): return 1 + (text.utf8.count + 7) / 8
        default: return MemoryLayout<FirestoreValue>.stride / 8
        }
    }

    var count: Int { header }

    private static func entry(_ index: Int, _ tail: UnsafeMutablePointer<UInt64>) -> UInt32 {
        UnsafeRawPointer(tail).load(fromByteOffset: index * 4, as: UInt32.self)
    }

    subscript(index: Int) -> FirestoreValue {
        withUnsafeMutablePointerToElements { tail in
            let entry = Self.entry(index, tail)
            let place = UnsafeRawPointer(tail + Int(entry >> 2))
            switch entry & 3 {
            case Kind.integer: return .integer(Int64(bitPattern: place.load(as: UInt64.self)))
            case Kind.double: return .double(Double(bitPattern: place.load(as: UInt64.self)))
            case Kind.string:
                let bytes = UnsafeRawBufferPointer(start: place + 8, count: Int(place.load(as: UInt64.self)))
                return .string(String(decoding: bytes, as: UTF8.self))
            default: return place.load(as: FirestoreValue.self)
            }
        }
    }

    /// The value at `index` as `body` reads it in place: a string as its stored UTF-8, without
    /// making the string, any other value as it is.
    func withValue(at index: Int, _ body: (StoredValue) -> Void) {
        withUnsafeMutablePointerToElements { tail in
            let entry = Self.entry(index, tail)
            guard entry & 3 == Kind.string else { return body(.value(self[index])) }
            let place = UnsafeRawPointer(tail + Int(entry >> 2))
            return body(.utf8(UnsafeBufferPointer(start: (place + 8).assumingMemoryBound(to: UInt8.self), count: Int(place.load(as: UInt64.self)))))
        }
    }

    deinit {
        withUnsafeMutablePointerToElements { tail in
            for index in 0..<header where Self.entry(index, tail) & 3 == Kind.value {
                UnsafeMutableRawPointer(tail + Int(Self.entry(index, tail) >> 2)).assumingMemoryBound(to: FirestoreValue.self).deinitialize(count: 1)
            }
        }
    }
}

/// A stored value as read in place (`Fields.withValue(at:_:)`): a string's UTF-8 bytes as the
/// document holds them, valid only while it is read, or any other value.
package enum StoredValue {
    case utf8(UnsafeBufferPointer<UInt8>)
    case value(FirestoreValue)
}
