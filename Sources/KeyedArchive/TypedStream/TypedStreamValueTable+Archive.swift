import Foundation
import PropertyList
import TypedStream

extension TypedStreamValueTable {
    /// The archive `KeyedArchive(data:options:)` decodes from the stream: the builder's objects,
    /// class descriptions and walk (`TypedStreamObjectBuilder.reachableObjects`), with the
    /// stream's header and classes but not its groups, and no keyed form. Nil where that walk
    /// gives up.
    package func archive(options: KeyedArchiveReadOptions) -> KeyedArchive? {
        var built: [TypedStreamObjectBuilder.Built] = []
        built.reserveCapacity(objectCount)
        var classTable: TypedStreamObjectBuilder.ClassTable = [:]
        for description in descriptions {
            let decoderName = description.decoderName
            classTable[description.archivedClass.uid] = (description.archivedClass, decoderName.flatMap { ArchivedContentDecoder.decoders[$0] }, decoderName)
        }
        var colorComponents = TypedStreamColorComponents()
        func classUID(_ index: Int) -> Int { description(ofClass: index).archivedClass.uid }
        for stored in storedObjects {
            switch stored.entry {
            case .pending:
                return nil
            case .string(let range):
                built.append(.inline(.string(string(range))))
            case .number(let value):
                built.append(.inline(value))
            case .data(let range):
                built.append(.inline(.data(data(range))))
            case .mutableString(let classIndex, let range):
                built.append(.object(classUID: classUID(classIndex), fields: [ArchivedField(key: "NS.string", value: .inline(.string(string(range))))]))
            case .date(let classIndex, let seconds):
                built.append(.object(classUID: classUID(classIndex), fields: [ArchivedField(key: "NS.time", value: .inline(.real(seconds)))]))
            case .mutableData(let classIndex, let range):
                built.append(.object(classUID: classUID(classIndex), fields: [ArchivedField(key: "NS.data", value: .inline(.data(data(range))))]))
            case .array(let classIndex, let range):
                built.append(.object(classUID: classUID(classIndex), fields: [ArchivedField(key: "NS.objects", value: references(range))]))
            case .dictionary(let classIndex, let keys, let values):
                built.append(.object(classUID: classUID(classIndex), fields: [
                    ArchivedField(key: "NS.keys", value: references(keys)), ArchivedField(key: "NS.objects", value: references(values)),
                ]))
            case .color(let classIndex, let kind, let range):
                let description = description(ofClass: classIndex)
                let uid = description.archivedClass.uid
                var text: [UInt8] = []
                colorComponents.appendText(of: components[range], to: &text)
                let fields = [
                    ArchivedField(key: "NSColorSpace", value: .inline(.integer(PropertyListInteger(kind)))),
                    ArchivedField(key: Self.colorKey(kind: kind), value: .inline(.data(Data(text)))),
                ]
                if description.decoderName == "NSColor", let color = colorComponents.decodedColor(kind: kind, components[range]) {
                    built.append(.decoded(classUID: uid, fields: fields, content: .color(color)))
                } else {
                    built.append(.object(classUID: uid, fields: fields))
                }
            }
        }
        guard total <= options.propertyList.maximumObjectCount else { return nil }
        guard let decoded = TypedStreamObjectBuilder.reachableObjects(built, top: top, classes: classTable, total: total, options: options) else {
            return nil
        }
        var archive = KeyedArchive(archiver: "NSArchiver", version: header.systemVersion, top: top,
                                   root: KeyedArchiveDecoding.root(of: top, preferring: options.topKey), objects: decoded, plist: .null)
        archive.typedStream = streamWithoutObjects
        return archive
    }

    /// `TypedStreamKeyedArchiver.readArray`'s `NS.objects` (and a dictionary's lists) made a
    /// field by `TypedStreamObjectBuilder.field`.
    func references(_ range: Range<Int>) -> ArchivedValue {
        guard !range.isEmpty else { return .inline(.array([])) }
        var values: [ArchivedValue] = []
        values.reserveCapacity(range.count)
        for i in range {
            let number = elements[i]
            values.append(number < 0 ? .null : .object(uid: Int(number) + 1))
        }
        return .array(values)
    }
}
