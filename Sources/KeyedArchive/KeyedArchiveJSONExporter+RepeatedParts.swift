@_spi(Writers) import PropertyList

extension KeyedArchiveJSONExporter {
    /// The parts of the document that objects repeat, each rendered once and copied after:
    /// the class part of an object (`class` to `inline`, the same for every object of a
    /// class) and the key of a field. It also counts the objects per class name, for
    /// `"classes"`. Both document writers (from a decoded archive and from an object table)
    /// write these through it, so they spell them alike.
    struct RepeatedParts {
        /// The class part of each class, as a range of `partText`, by class instance; with the
        /// slot of its name in `classNames`.
        var classParts: [ObjectIdentifier: (range: Range<Int>, slot: Int)] = [:]
        /// The classes met most recently, searched before `classParts`: archives use a few
        /// classes over and over, and comparing identities is cheaper than hashing them.
        var recentClasses = RecentRing<(id: ObjectIdentifier, range: Range<Int>, slot: Int)>()
        /// Without default members: the part (`classUID` alone) by class UID, once described.
        var compactParts: [Int: (range: Range<Int>, slot: Int)] = [:]
        var recentCompactParts = RecentRing<(uid: Int, range: Range<Int>, slot: Int)>()
        /// `"classes"`, counted as the objects are written: `KeyedArchive.classCounts`, which
        /// lists names in the order of the first object of each, in UID order.
        var classNames: [String] = []
        var classCounts: [Int] = []
        var classSlots: [String: Int] = [:]
        /// Field keys as written (`"NS.keys" : `), escaped once: archives use a few keys over
        /// and over. Each key's text is a range of `fieldKeyText`.
        var fieldKeys: [(key: String, text: Range<Int>)] = []
        var fieldKeyText: [UInt8] = []
        /// The same by key index, for a writer that knows each field's key as an index into a
        /// table of distinct keys (`KeyedArchiveObjectTable`): no string is compared.
        var fieldKeysByIndex: [Range<Int>?] = []
        /// The compact class part by class slot, for a writer that knows each object's slot.
        var compactPartsBySlot: [(range: Range<Int>, slot: Int)?] = []
        /// The same for inline objects, by `ArchivedContent.inlineClassName` (a handful of names).
        var inlineParts: [(name: String, range: Range<Int>, slot: Int)] = []
        /// The text of every class part, written once.
        var partText: [UInt8] = []

        /// `"classes"`: each class name with its count of objects.
        func writeClassCounts(level: Int, into e: inout JSONEmitter) {
            guard !classNames.isEmpty else { return e.writeEmpty(UInt8(ascii: "{"), UInt8(ascii: "}"), level: level) }
            e.out.append(UInt8(ascii: "{"))
            for i in classNames.indices {
                e.writeKey(string: classNames[i], first: i == 0, level: level + 1)
                e.out.appendDecimal(classCounts[i])
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// A field's key, as `writeKey` writes it, from `fieldKeys` when it has been met before.
        mutating func writeFieldKey(_ key: String, first: Bool, level: Int, into e: inout JSONEmitter) {
            e.writeSeparator(first: first, level: level)
            // Compared by their bytes, which are what is written: `==` would take "é" written
            // as one scalar and as two for the same key.
            for i in fieldKeys.indices where literallyEqual(fieldKeys[i].key, key) {
                let text = fieldKeys[i].text
                return fieldKeyText.withUnsafeBufferPointer { e.out.append(UnsafeBufferPointer(rebasing: $0[text])) }
            }
            let start = e.out.length
            e.writeString(key)
            e.writeColon()
            if fieldKeys.count < 32 {
                let first = fieldKeyText.count
                fieldKeyText.append(contentsOf: e.out.bytes(start..<e.out.length))
                fieldKeys.append((key, first..<fieldKeyText.count))
            }
        }

        /// `writeFieldKey` of the key at `index` of a table of distinct keys.
        mutating func writeFieldKey(_ key: String, index: Int, first: Bool, level: Int, into e: inout JSONEmitter) {
            if index < fieldKeysByIndex.count, let text = fieldKeysByIndex[index] {
                e.writeSeparator(first: first, level: level)
                return fieldKeyText.withUnsafeBufferPointer { e.out.append(UnsafeBufferPointer(rebasing: $0[text])) }
            }
            e.writeSeparator(first: first, level: level)
            let keyStart = e.out.length
            e.writeString(key)
            e.writeColon()
            if index >= fieldKeysByIndex.count { fieldKeysByIndex += Array(repeating: nil, count: index + 1 - fieldKeysByIndex.count) }
            let firstByte = fieldKeyText.count
            fieldKeyText.append(contentsOf: e.out.bytes(keyStart..<e.out.length))
            fieldKeysByIndex[index] = firstByte..<fieldKeyText.count
        }

        /// The class part of `slot` when one was written before (counted, as
        /// `writeCompactClassPart(archivedClass:slot:level:into:)` counts it); false otherwise, for
        /// a caller that would have to look its class up first.
        mutating func appendKnownCompactClassPart(slot: Int, into e: inout JSONEmitter) -> Bool {
            guard slot < compactPartsBySlot.count, let known = compactPartsBySlot[slot] else { return false }
            classCounts[known.slot] += 1
            appendPart(known.range, into: &e)
            return true
        }

        /// `writeCompactClassPart` of an object whose class is at `slot` of a table of classes
        /// (`KeyedArchiveClassIndex.classes`).
        mutating func writeCompactClassPart(archivedClass: ArchivedClass, slot: Int, level: Int, into e: inout JSONEmitter) {
            if appendKnownCompactClassPart(slot: slot, into: &e) { return }
            writeCompactClassPart(archivedClass: archivedClass, inlineName: archivedClass.name, level: level, into: &e)
            if let known = compactParts[archivedClass.uid] {
                if slot >= compactPartsBySlot.count { compactPartsBySlot += Array(repeating: nil, count: slot + 1 - compactPartsBySlot.count) }
                compactPartsBySlot[slot] = known
            }
        }

        /// `"class"` to `"inline"`, each entry after a comma: rendered once per class. The
        /// object is counted under its class name for `"classes"`.
        mutating func writeClassPart(archivedClass: ArchivedClass?, inlineName name: String, readableName: String, compact: Bool,
                                     level: Int, into e: inout JSONEmitter) {
            if compact {
                return writeCompactClassPart(archivedClass: archivedClass, inlineName: name, level: level, into: &e)
            }
            if let archivedClass {
                let id = ObjectIdentifier(archivedClass)
                if let recent = recentClasses.first(where: { $0.id == id }) {
                    classCounts[recent.slot] += 1
                    return appendPart(recent.range, into: &e)
                }
                let known: (range: Range<Int>, slot: Int)
                if let part = classParts[id] {
                    known = part
                    appendPart(part.range, into: &e)
                } else {
                    let start = e.out.length
                    DocumentWriter.writeClassPart(name: archivedClass.name, readable: archivedClass.readableName, chain: archivedClass.chain,
                                        hints: archivedClass.hints, classUID: archivedClass.uid, level: level, into: &e)
                    known = (keepPart(start, of: e), classSlot(archivedClass.name))
                    classParts[id] = known
                }
                classCounts[known.slot] += 1
                recentClasses.remember((id, known.range, known.slot))
            } else {
                for part in inlineParts where part.name == name {
                    classCounts[part.slot] += 1
                    return appendPart(part.range, into: &e)
                }
                let start = e.out.length
                DocumentWriter.writeClassPart(name: name, readable: readableName, chain: [name], hints: [], classUID: nil,
                                              level: level, into: &e)
                let slot = classSlot(name)
                classCounts[slot] += 1
                inlineParts.append((name, keepPart(start, of: e), slot))
            }
        }

        /// The class part without default members: nothing for an inline object (its kind
        /// says its class); the class described in full by the first object of each class
        /// description, and then `classUID` alone, which is the part kept for the others.
        mutating func writeCompactClassPart(archivedClass: ArchivedClass?, inlineName name: String, level: Int, into e: inout JSONEmitter) {
            guard let archivedClass else {
                for part in inlineParts where part.name == name {
                    classCounts[part.slot] += 1
                    return
                }
                let slot = classSlot(name)
                classCounts[slot] += 1
                inlineParts.append((name, 0..<0, slot))
                return
            }
            // By class UID, which is what a reader of the compact form goes by.
            let uid = archivedClass.uid
            if let recent = recentCompactParts.first(where: { $0.uid == uid }) {
                classCounts[recent.slot] += 1
                return appendPart(recent.range, into: &e)
            }
            let known: (range: Range<Int>, slot: Int)
            if let part = compactParts[uid] {
                known = part
                appendPart(part.range, into: &e)
            } else {
                e.writeKey("class", first: false, level: level)
                e.writeString(archivedClass.name)
                if archivedClass.readableName != archivedClass.name {
                    e.writeKey("readableClass", first: false, level: level)
                    e.writeString(archivedClass.readableName)
                }
                e.writeKey("classChain", first: false, level: level)
                DocumentWriter.writeStrings(archivedClass.chain, level: level, into: &e)
                if !archivedClass.hints.isEmpty {
                    e.writeKey("classHints", first: false, level: level)
                    DocumentWriter.writeStrings(archivedClass.hints, level: level, into: &e)
                }
                let start = e.out.length
                e.writeKey("classUID", first: false, level: level)
                e.out.appendDecimal(uid)
                known = (keepPart(start, of: e), classSlot(archivedClass.name))
                compactParts[uid] = known
            }
            classCounts[known.slot] += 1
            recentCompactParts.remember((uid, known.range, known.slot))
        }

        /// Copies what was written since `start` into `partText`; returns its range there.
        mutating func keepPart(_ start: Int, of e: borrowing JSONEmitter) -> Range<Int> {
            let first = partText.count
            partText.append(contentsOf: e.out.bytes(start..<e.out.length))
            return first..<partText.count
        }

        /// Appends a part kept by `keepPart`.
        func appendPart(_ range: Range<Int>, into e: inout JSONEmitter) {
            partText.withUnsafeBufferPointer { e.out.append(UnsafeBufferPointer(rebasing: $0[range])) }
        }

        /// The slot of a class name in `classNames`, added at the end when new.
        mutating func classSlot(_ name: String) -> Int {
            if let slot = classSlots[name] { return slot }
            classNames.append(name)
            classCounts.append(0)
            classSlots[name] = classNames.count - 1
            return classNames.count - 1
        }
    }
}
