import KeyedArchive

/// The first path from `$top` to each object, such as `root.NS.objects[3].tintColor`, found
/// breadth first so that reports name the shortest way to an object.
struct ArchivePaths {
    var paths: [Int: String] = [:]
    var keys: [Int: String] = [:]

    init(_ archive: KeyedArchive) {
        var queue: [Int] = []
        func visit(_ value: ArchivedValue, _ path: String, _ key: String) {
            switch value {
            case .object(let uid) where paths[uid] == nil:
                paths[uid] = path
                keys[uid] = key
                queue.append(uid)
            case .array(let elements):
                for (i, e) in elements.enumerated() { visit(e, "\(path)[\(i)]", key) }
            default: break
            }
        }
        for entry in archive.top {
            visit(entry.value, entry.key == "root" ? "root" : "$top.\(entry.key)", entry.key)
        }
        var head = 0
        while head < queue.count {
            let uid = queue[head]
            head += 1
            guard uid < archive.objects.count, let object = archive.objects[uid], let base = paths[uid] else { continue }
            for field in object.fields { visit(field.value, "\(base).\(field.key)", field.key) }
        }
    }

    func path(to uid: Int) -> String { paths[uid] ?? "#\(uid)" }

    /// The key the object was first found under (`NS.objects`, `tintColor`, `root`).
    func lastKey(of uid: Int) -> String { keys[uid] ?? "root" }
}
