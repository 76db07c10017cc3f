import Foundation

/// Whether two strings hold the same code points, as CF compares strings.
///
/// Swift's `==` treats canonically equivalent strings ("é" and "e\u{301}") as equal; property
/// lists do not. Lengths are compared first and contiguous storage with memcmp, so the common
/// cases cost no more than `==`.
@inline(__always)
package func literallyEqual(_ a: String, _ b: String) -> Bool {
    let au = a.utf8, bu = b.utf8
    guard au.count == bu.count else { return false }
    if let result = au.withContiguousStorageIfAvailable({ ap in
        bu.withContiguousStorageIfAvailable { bp in
            guard let x = ap.baseAddress, let y = bp.baseAddress else { return true } // both empty
            return memcmp(x, y, ap.count) == 0
        }
    }), let equal = result {
        return equal
    }
    return au.elementsEqual(bu)
}
