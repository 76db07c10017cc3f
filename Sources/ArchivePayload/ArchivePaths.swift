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
        /// How many components the path has: 1 for a `$top` entry.
        var depth: Int
        /// The object the path starts from, linked from `$top`.
        var root: Int
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
                if link.parent < 0 { links[uid]?.root = uid }
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
        for entry in archive.top { visit(entry.value, Link(parent: -1, key: entry.key, index: -1, depth: 1, root: -1)) }
        var head = 0
        while head < queue.count {
            let uid = queue[head]
            head += 1
            guard let object = archive.objects[uid], let link = links[uid] else { continue }
            for field in object.fields { visit(field.value, Link(parent: uid, key: field.key, index: -1, depth: link.depth + 1, root: link.root)) }
        }
    }

    /// A deep path shows its `$top` entry and its last ten components around a count of the
    /// rest, keys cut to 100 characters: a report names every refused object, and full paths of
    /// deep objects under long keys made checking a 50 kB archive cost gigabytes.
    func path(to uid: Int) -> String {
        guard uid >= 0, uid < links.count, links[uid] != nil else { return "#\(uid)" }
        var parts: [String] = []
        var current = uid
        while current >= 0, current < links.count, let link = links[current] {
            let index = link.index >= 0 ? "[\(link.index)]" : ""
            if link.parent < 0 {
                parts.append((link.key == "root" ? "root" : "$top.\(Self.shortened(link.key))") + index)
            } else if parts.count == 10, link.depth > 1 {
                // Jump to where the path starts.
                parts.append("…(\(link.depth - 1) more)…")
                current = link.root
                continue
            } else {
                parts.append("." + Self.shortened(link.key) + index)
            }
            current = link.parent
        }
        return parts.reversed().joined()
    }

    /// A key as a path shows it: at most 100 characters.
    static func shortened(_ key: String) -> String {
        key.utf8.count <= 100 || key.count <= 100 ? key : String(key.prefix(100)) + "…"
    }

    /// The key the object was first found under (`NS.objects`, `tintColor`, `root`).
    func lastKey(of uid: Int) -> String {
        guard uid >= 0, uid < links.count, let link = links[uid] else { return "root" }
        return link.key
    }
}
