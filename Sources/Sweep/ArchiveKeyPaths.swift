import KeyedArchive
import PropertyList

/// The first key path from `$top` to each object of an archive, as a reader of the decoded
/// document would follow it: `root.attachments[0]` for the first element of the NSArray in the
/// root's `attachments` field (not `root.attachments.NS.objects[0]`, the raw fields' path).
///
/// Found breadth first, so each object is named by its shortest way from the root. Only a
/// parent link per object is kept; the text is built for the few objects a sweep names.
struct ArchiveKeyPaths {
    struct Link {
        var parent: Int
        var step: String
    }

    private var links: [Link?]

    init(_ archive: KeyedArchive) {
        links = Array(repeating: nil, count: archive.objects.count)
        var queue: [Int] = []
        func visit(_ value: ArchivedValue, parent: Int, step: String) {
            switch value {
            case .object(let uid) where uid < links.count && links[uid] == nil && archive.objects[uid] != nil:
                links[uid] = Link(parent: parent, step: step)
                queue.append(uid)
            case .array(let elements):
                for (i, element) in elements.enumerated() { visit(element, parent: parent, step: step + "[\(i)]") }
            default:
                break
            }
        }
        for entry in archive.top {
            visit(entry.value, parent: -1, step: entry.key == "root" ? "root" : "$top" + SweepPath.keyStep(entry.key))
        }
        var head = 0
        while head < queue.count {
            let uid = queue[head]
            head += 1
            guard let object = archive.objects[uid] else { continue }
            for (step, value) in Self.children(of: object, in: archive) { visit(value, parent: uid, step: step) }
        }
    }

    /// The steps to an object's children: elements by index, dictionary values by key, a
    /// URL's base, an error's user info; the fields of any other object by their keys.
    static func children(of object: ArchivedObject, in archive: KeyedArchive) -> [(String, ArchivedValue)] {
        func indexed(_ values: [ArchivedValue]) -> [(String, ArchivedValue)] {
            values.enumerated().map { ("[\($0.offset)]", $0.element) }
        }
        switch object.content {
        case .array(let values), .set(let values), .orderedSet(let values), .oldStyleArray(let values), .countedSet(let values, _):
            return indexed(values)
        case .dictionary(let keys, let values):
            return zip(keys, values).enumerated().map { index, pair in
                (archive.string(pair.0).map(SweepPath.keyStep) ?? "[\(index)]", pair.1)
            }
        case .url(let base, let relative):
            return [(".base", base), (".relative", relative)]
        case .attributedString(let string, let attributes, _):
            return [(".string", string)] + attributes.enumerated().map { (".attributes[\($0.offset)]", $0.element) }
        case .error(_, _, let userInfo):
            return [(".userInfo", userInfo)]
        default:
            return object.fields.map { (SweepPath.keyStep($0.key), $0.value) }
        }
    }

    /// The key path to an object, or `#UID` for one unreachable from `$top`.
    func path(to uid: Int) -> String {
        guard uid >= 0, uid < links.count, links[uid] != nil else { return "#\(uid)" }
        var steps: [String] = []
        var current = uid
        var guardCount = 0
        while current >= 0, current < links.count, let link = links[current], guardCount <= links.count {
            steps.append(link.step)
            current = link.parent
            guardCount += 1
        }
        return steps.reversed().joined()
    }
}
