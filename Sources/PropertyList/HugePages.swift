import Foundation
internal import SystemInterface

/// Asks the kernel to back large buffers with 2 MiB pages.
///
/// The binary writers fill tables of tens of megabytes (object slots, references, the output
/// index of each input object, the uniquing table) and read them back at random. In 4 KiB
/// pages, that costs a fault and a cleared page for every 4 KiB first written, and a TLB miss on
/// most reads; with `transparent_hugepage` in its usual `madvise` mode, the kernel gives 2 MiB
/// pages only to memory that asks. Where it cannot, nothing changes. Output buffers, written
/// once from start to end, do not ask: they gain little, and where the kernel compacts memory
/// to find huge pages (`defrag` set to `madvise`) a fragmented machine could stall them.
enum HugePages {
    static let size = MemoryMap.hugePageSize

    /// Advises the whole 2 MiB pages inside `byteCount` bytes from `start`, before they are
    /// first written; smaller buffers are left alone.
    static func advise(_ start: UnsafeMutableRawPointer?, byteCount: Int) {
        MemoryMap.adviseHugePages(start, byteCount: byteCount)
    }

    /// Advises the storage `array` has reserved (its capacity), before it is filled.
    static func advise<Element>(_ array: inout [Element]) {
        let bytes = array.capacity * MemoryLayout<Element>.stride
        array.withUnsafeMutableBufferPointer { advise(UnsafeMutableRawPointer($0.baseAddress), byteCount: bytes) }
    }

    /// `count` copies of `value` in storage advised before it is written.
    static func array<Element>(repeating value: Element, count: Int) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: count * MemoryLayout<Element>.stride)
            buffer.initialize(repeating: value)
            initialized = count
        }
    }
}
