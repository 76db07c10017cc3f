import Foundation
internal import CLibXML2

/// Reads the `contents` XML of an `.xcdatamodel` folder, as Xcode writes it:
///
/// ```xml
/// <model type="com.apple.IDECoreDataModeler.DataModel" …>
///     <entity name="Group" representedClassName="Group" parentEntity="…" isAbstract="YES">
///         <attribute name="darkColor" optional="YES" attributeType="Transformable"
///                    valueTransformerName="UIColorValueTransformer" customClassName="UIColor"/>
///         <relationship name="members" toMany="YES" destinationEntity="Member" inverseName="group" …/>
///     </entity>
/// </model>
/// ```
///
/// libxml2 parses it without network access; a document type declaration is refused, so no
/// entity can expand, and the input size is capped before parsing.
struct SourceModelReader {
    let options: ModelReadOptions

    func read(_ data: Data) throws(ModelError) -> ManagedObjectModel {
        guard data.count <= options.maximumInputBytes else {
            throw ModelError(.limitExceeded, "\(data.count) bytes, over the limit of \(options.maximumInputBytes) (the model input limit)")
        }
        guard data.count <= Int(Int32.max) else { throw ModelError(.limitExceeded, "over 2 GB") }
        guard let context = xmlNewParserCtxt() else { throw ModelError(.cannotRead, "libxml2 could not start") }
        defer { xmlFreeParserCtxt(context) }
        let flags = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> xmlDocPtr? in
            guard let base = raw.bindMemory(to: CChar.self).baseAddress else { return nil }
            return xmlCtxtReadMemory(context, base, Int32(raw.count), "contents", nil, flags)
        }
        guard let document else {
            if let error = xmlCtxtGetLastError(context) {
                let message = error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "XML error"
                throw ModelError(.malformed, "not well-formed XML: \(message)", location: "line \(error.pointee.line)")
            }
            throw ModelError(.malformed, "not well-formed XML")
        }
        defer { xmlFreeDoc(document) }
        guard document.pointee.intSubset == nil, document.pointee.extSubset == nil else {
            throw ModelError(.malformed, "a document type declaration, which a model file never has (refused: entities could expand)")
        }
        guard let root = xmlDocGetRootElement(document), Self.name(root) == "model" else {
            throw ModelError(.notAModel, "the XML's root element is not <model>")
        }
        var entities: [EntityDescription] = []
        var names: Set<String> = []
        for node in Self.elements(root) where Self.name(node) == "entity" {
            guard entities.count < options.maximumEntities else {
                throw ModelError(.limitExceeded, "more than \(options.maximumEntities) entities (the model entity limit)")
            }
            let entity = try readEntity(node)
            guard names.insert(entity.name).inserted else {
                throw ModelError(.malformed, "two entities are named \(entity.name)", location: "line \(node.pointee.line)")
            }
            entities.append(entity)
        }
        let identifier = Self.attribute(root, "userDefinedModelVersionIdentifier") ?? ""
        return ManagedObjectModel(entities: entities, versionIdentifiers: [identifier])
    }

    func readEntity(_ node: xmlNodePtr) throws(ModelError) -> EntityDescription {
        let line = "line \(node.pointee.line)"
        guard let name = Self.attribute(node, "name"), !name.isEmpty else {
            throw ModelError(.malformed, "an <entity> has no name", location: line)
        }
        var entity = EntityDescription(name: name, representedClassName: Self.attribute(node, "representedClassName"),
                                       parentEntity: Self.attribute(node, "parentEntity"),
                                       isAbstract: Self.yes(Self.attribute(node, "isAbstract")))
        var seen: Set<String> = []
        var count = 0
        for child in Self.elements(node) {
            let kind = Self.name(child)
            guard kind == "attribute" || kind == "relationship" else { continue }
            count += 1
            guard count <= options.maximumPropertiesPerEntity else {
                throw ModelError(.limitExceeded, "entity \(name) has more than \(options.maximumPropertiesPerEntity) properties (the per-entity property limit)", location: line)
            }
            let place = "line \(child.pointee.line)"
            guard let propertyName = Self.attribute(child, "name"), !propertyName.isEmpty else {
                throw ModelError(.malformed, "entity \(name) has a <\(kind)> without a name", location: place)
            }
            guard seen.insert(propertyName).inserted else {
                throw ModelError(.malformed, "entity \(name) declares \(propertyName) twice", location: place)
            }
            let optional = Self.yes(Self.attribute(child, "optional"))
            let transient = Self.yes(Self.attribute(child, "transient"))
            if kind == "attribute" {
                let typeName = Self.attribute(child, "attributeType") ?? "Undefined"
                guard let type = AttributeType(contentsName: typeName) else {
                    throw ModelError(.malformed, "attribute \(name).\(propertyName) has the unknown type \"\(typeName)\"", location: place)
                }
                let defaultText = Self.attribute(child, "defaultValueString") ?? Self.attribute(child, "defaultDateTimeInterval")
                let custom = Self.attribute(child, "customClassName").flatMap { $0.isEmpty ? nil : $0 }
                entity.attributes.append(AttributeDescription(
                    name: propertyName, attributeType: type, isOptional: optional, isTransient: transient,
                    defaultValue: defaultText.flatMap { AttributeDescription.canonicalDefault($0, type: type) },
                    valueTransformerName: Self.attribute(child, "valueTransformerName").flatMap { $0.isEmpty ? nil : $0 },
                    valueClassName: type == .transformable ? custom : (custom ?? type.standardValueClassName)))
            } else {
                let maxCount = Self.attribute(child, "maxCount").flatMap { Int($0) }
                let toMany = Self.attribute(child, "toMany").map(Self.yes) ?? (maxCount.map { $0 != 1 } ?? false)
                entity.relationships.append(RelationshipDescription(
                    name: propertyName, destinationEntity: Self.attribute(child, "destinationEntity"),
                    inverseName: Self.attribute(child, "inverseName"), isToMany: toMany,
                    isOrdered: Self.yes(Self.attribute(child, "ordered")), isOptional: optional, isTransient: transient))
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        return entity
    }

    static func yes(_ text: String?) -> Bool { text == "YES" || text == "yes" || text == "true" }

    static func name(_ node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    /// The element children of a node.
    static func elements(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var out: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { out.append(current) }
            child = current.pointee.next
        }
        return out
    }

    /// An XML attribute's value, read from its text children (nothing to free).
    static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        var property = node.pointee.properties
        while let current = property {
            if let propertyName = current.pointee.name, String(cString: propertyName) == name {
                var text = ""
                var child = current.pointee.children
                while let part = child {
                    if let content = part.pointee.content { text += String(cString: content) }
                    child = part.pointee.next
                }
                return text
            }
            property = current.pointee.next
        }
        return nil
    }
}
