import Foundation
import PropertyList

/// Structured mutations of a keyed archive, made on its property list and written as binary:
/// the envelope (`$archiver`, `$version`, `$top`, `$objects`), the references from `$top`, the
/// root object's `$class` and its class description, its references, and objects of every kind.
/// Both sides read the same bytes: NSKeyedUnarchiver (`ArchiveOracle`) and `KeyedArchive`.
enum ArchiveMutations {
    /// Whether a property list is shaped like an archive enough to mutate: a dictionary with
    /// `$archiver`.
    static func isArchive(_ value: PropertyListValue) -> Bool {
        guard case .dictionary(let d) = value else { return false }
        return d["$archiver"] != nil
    }

    static func mutations(of archive: PropertyListValue) -> [(name: String, bytes: [UInt8])] {
        guard case .dictionary(let envelope) = archive else { return [] }
        var out: [(String, PropertyListValue)] = [("archive", archive)]
        func with(_ name: String, _ change: (inout PropertyListDictionary) -> Void) {
            var d = envelope
            change(&d)
            out.append(("archive." + name, .dictionary(d)))
        }
        let objects = envelope["$objects"]?.arrayValue ?? []
        let count = UInt64(objects.count)

        // The envelope.
        with("archiver.missing") { $0["$archiver"] = nil }
        with("archiver=NSKeyedArchiverX") { $0["$archiver"] = .string("NSKeyedArchiverX") }
        with("archiver=integer") { $0["$archiver"] = .integer(PropertyListInteger(1)) }
        with("version.missing") { $0["$version"] = nil }
        with("version=99999") { $0["$version"] = .integer(PropertyListInteger(99_999)) }
        with("version=real") { $0["$version"] = .real(100_000) }
        with("version=real.fraction") { $0["$version"] = .real(100_000.75) }
        with("version=wrapped") { $0["$version"] = .integer(PropertyListInteger((Int64(1) << 32) + 100_000)) }
        with("version=string") { $0["$version"] = .string("100000") }
        with("version=bool") { $0["$version"] = .bool(true) }
        with("version=uid") { $0["$version"] = .uid(100_000) }
        with("top.missing") { $0["$top"] = nil }
        with("top=array") { $0["$top"] = .array([]) }
        with("top.empty") { $0["$top"] = .dictionary(PropertyListDictionary()) }
        with("objects.missing") { $0["$objects"] = nil }
        with("objects=dictionary") { $0["$objects"] = .dictionary(PropertyListDictionary()) }
        with("objects.empty") { $0["$objects"] = .array([]) }
        with("objects.empty.top.empty") {
            $0["$objects"] = .array([])
            $0["$top"] = .dictionary(PropertyListDictionary())
        }
        if !objects.isEmpty {
            with("objects[0]=$nul") { $0["$objects"] = .array([.string("$nul")] + objects.dropFirst()) }
            with("objects[0]=integer") { $0["$objects"] = .array([.integer(PropertyListInteger(0))] + objects.dropFirst()) }
            with("objects[0]=dictionary") { $0["$objects"] = .array([.dictionary(PropertyListDictionary())] + objects.dropFirst()) }
        }

        // References from $top.
        guard case .dictionary(let top)? = envelope["$top"] else { return encoded(out) }
        func withTop(_ name: String, _ change: (inout PropertyListDictionary) -> Void) {
            with(name) { d in
                var t = top
                change(&t)
                d["$top"] = .dictionary(t)
            }
        }
        let rootKey = top.keys.first { $0.stringValue == "root" } ?? top.keys.first
        if let rootKey {
            withTop("top.root=uid(count)") { $0[rootKey] = .uid(count) }
            withTop("top.root=uid(max)") { $0[rootKey] = .uid(UInt64(UInt32.max)) }
            withTop("top.root=uid(0)") { $0[rootKey] = .uid(0) }
            withTop("top.root=integer") { $0[rootKey] = .integer(PropertyListInteger(5)) }
            withTop("top.root=string") { $0[rootKey] = .string("root") }
            withTop("top.root=array") { $0[rootKey] = .array([.uid(1)]) }
        }
        withTop("top.extra=uid(count)") { $0["extra"] = .uid(count) }
        withTop("top.$key=uid(count)") { $0["$extra"] = .uid(count) }
        withTop("top.$$key=uid(count)") { $0["$$extra"] = .uid(count) }
        withTop("top.nonstring-key") { $0[.integer(PropertyListInteger(1))] = .uid(1) }
        with("objects+$null.top.extra") { d in
            d["$objects"] = .array(objects + [.string("$null")])
            var t = top
            t["extra"] = .uid(count)
            d["$top"] = .dictionary(t)
        }

        // The root object, its class and its references.
        guard let rootKey, case .uid(let rootUID)? = top[rootKey], rootUID < count,
              case .dictionary(let root) = objects[Int(rootUID)] else { return encoded(out) }
        func withObjects(_ name: String, _ change: (inout [PropertyListValue]) -> Void) {
            with(name) { d in
                var o = objects
                change(&o)
                d["$objects"] = .array(o)
            }
        }
        func withRoot(_ name: String, _ change: (inout PropertyListDictionary, inout [PropertyListValue]) -> Void) {
            withObjects(name) { o in
                var r = root
                change(&r, &o)
                o[Int(rootUID)] = .dictionary(r)
            }
        }
        withRoot("root.class.missing") { r, _ in r["$class"] = nil }
        withRoot("root.class=integer") { r, _ in r["$class"] = .integer(PropertyListInteger(1)) }
        withRoot("root.class=uid(count)") { r, _ in r["$class"] = .uid(count) }
        withRoot("root.class=uid(0)") { r, _ in r["$class"] = .uid(0) }
        withRoot("root.class=uid(self)") { r, _ in r["$class"] = .uid(rootUID) }
        withRoot("root.class=uid(string)") { r, o in
            o.append(.string("NSObject"))
            r["$class"] = .uid(UInt64(o.count - 1))
        }
        if case .uid(let classUID)? = root["$class"], classUID < count, case .dictionary(let description) = objects[Int(classUID)] {
            func withClass(_ name: String, _ change: (inout PropertyListDictionary) -> Void) {
                withObjects(name) { o in
                    var c = description
                    change(&c)
                    o[Int(classUID)] = .dictionary(c)
                }
            }
            withClass("class.classname.missing") { $0["$classname"] = nil }
            withClass("class.classname=integer") { $0["$classname"] = .integer(PropertyListInteger(1)) }
            withClass("class.classname.empty") { $0["$classname"] = .string("") }
            withClass("class.classes.missing") { $0["$classes"] = nil }
            withClass("class.classes=string") { $0["$classes"] = .string("NSObject") }
            withClass("class.classes=[integer]") { $0["$classes"] = .array([.integer(PropertyListInteger(1))]) }
            withClass("class.classes.empty") { $0["$classes"] = .array([]) }
            withClass("class.classhints=[integer]") { $0["$classhints"] = .array([.integer(PropertyListInteger(1))]) }
            withClass("class.classhints=string") { $0["$classhints"] = .string("NSObject") }
            withClass("class.extra-key") { $0["$extra"] = .integer(PropertyListInteger(1)) }
        }
        if let referenceKey = root.keys.first(where: { key in
            guard let name = key.stringValue, name != "$class", case .uid = root[key] else { return false }
            return true
        }) {
            withRoot("root.ref=uid(count)") { r, _ in r[referenceKey] = .uid(count) }
            withRoot("root.ref=uid(0)") { r, _ in r[referenceKey] = .uid(0) }
            withRoot("root.ref=uid(self)") { r, _ in r[referenceKey] = .uid(rootUID) }
            let kinds: [(String, PropertyListValue)] = [
                ("string", .string("text")), ("$null", .string("$null")), ("integer", .integer(PropertyListInteger(7))),
                ("real", .real(1.5)), ("bool", .bool(true)), ("date", .date(Date(timeIntervalSinceReferenceDate: 0))),
                ("data", .data(Data([1, 2]))), ("array", .array([.uid(1)])), ("uid", .uid(1)),
                ("dictionary", .dictionary(PropertyListDictionary([(.string("a"), .integer(PropertyListInteger(1)))]))),
                ("dictionary-with-uid", .dictionary(PropertyListDictionary([(.string("a"), .uid(count))]))),
            ]
            for (kind, value) in kinds {
                withRoot("root.ref->\(kind)") { r, o in
                    o.append(value)
                    r[referenceKey] = .uid(UInt64(o.count - 1))
                }
            }
        }
        withRoot("root.key=integer") { r, _ in r[.integer(PropertyListInteger(1))] = .integer(PropertyListInteger(1)) }
        withRoot("root.$key=uid(count)") { r, _ in r["$extra"] = .uid(count) }
        withRoot("root.$$key=uid(count)") { r, _ in r["$$extra"] = .uid(count) }
        withRoot("root.array=[uid(count)]") { r, _ in r["extra"] = .array([.uid(count)]) }
        return encoded(out)
    }

    static func encoded(_ values: [(String, PropertyListValue)]) -> [(name: String, bytes: [UInt8])] {
        let writer = BinaryPropertyListWriter()
        return values.map { ($0.0, [UInt8](writer.write($0.1))) }
    }
}
