import KeyedArchive

/// The first path from `$top` to each object, such as `root.NS.objects[3].tintColor`, found
/// breadth first so that reports name the shortest way to an object.
///
/// Only a parent link is kept per object; the path text is built when a report asks for it,
/// so checking a large archive costs no string work for the objects that pass.
struct ArchivePaths {
    struct Link {
        var parent: Int
        var key: String
        /// The element index within the field's array, or -1.
        var index: Int
    }

    /// Parent links by UID; the parent is -1 for a `$top` entry.
    var links: [Link?]

    init(_ archive: KeyedArchive) {
        links = Array(repeating: nil, count: archive.objects.count)
        var queue: [Int] = []
        func visit(_ value: ArchivedValue, _ link: Link) {
            switch value {
            case .object(let uid) where uid < links.count && links[uid] == nil:
                links[uid] = link
                queue.append(uid)
            case .array(let elements):
                for (i, e) in elements.enumerated() {
                    var l = link
                    l.index = i
                    visit(e, l)
                }
            default: break
            }
        }
        for entry in archive.top { visit(entry.value, Link(parent: -1, key: entry.key, index: -1)) }
        var head = 0
        while head < queue.count {
            let uid = queue[head]
            head += 1
            guard let object = archive.objects[uid] else { continue }
            for field in object.fields { visit(field.value, Link(parent: uid, key: field.key, index: -1)) }
        }
    }

    func path(to uid: Int) -> String {
        var parts: [String] = []
        var current = uid
        var steps = 0
        while current >= 0, current < links.count, let link = links[current], steps < links.count {
            let index = link.index >= 0 ? "[\(link.index)]" : ""
            if link.parent < 0 {
                parts.append((link.key == "root" ? "root" : "$top.\(link.key)") + index)
            } else {
                parts.append("." + link.key + index)
            }
            current = link.parent
            steps += 1
        }
        return parts.isEmpty ? "#\(uid)" : parts.reversed().joined()
    }

    /// The key the object was first found under (`NS.objects`, `tintColor`, `root`).
    func lastKey(of uid: Int) -> String {
        guard uid >= 0, uid < links.count, let link = links[uid] else { return "root" }
        return link.key
    }
}
