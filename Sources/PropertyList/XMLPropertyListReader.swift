internal import CLibXML2
import Foundation

/// Reads XML property lists with libxml2's streaming (SAX2) parser.
///
/// No DTD is loaded and nothing is fetched from the network. Every `<!ENTITY` declaration is
/// refused, so only the five predefined entities and character references expand: external
/// entities (XXE) and entity bombs are impossible. Apple's DOCTYPE line is accepted.
public struct XMLPropertyListReader: Sendable {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Bytes handed to libxml2 per push; small enough that it never holds a second copy of a big file.
    static let chunkSize = 1 << 16

    /// libxml2 wants one initialization before any thread parses.
    private static let libxml2Ready: Void = xmlInitParser()

    /// Reads one XML property list.
    ///
    /// - Returns: the root value, which may be wrapped in `<plist>` or stand alone, as CF allows.
    /// - Throws: `PropertyListError` with the line and column and the key path of the value.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        var ignored: [PropertyListWarning] = []
        return try read(data, warnings: &ignored)
    }

    /// Reads one XML property list, adding a warning for each key repeated in a `<dict>`
    /// (resolved as `options.duplicateKeys` says) to `warnings`.
    public func read(_ data: Data, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        try options.checkInputSize(data.count)
        // libxml2 2.9 mishandles UTF-32, so such documents are transcoded to UTF-8 here and
        // their encoding declaration is ignored. UTF-8 and UTF-16 go to libxml2 as they are.
        let (encoding, _) = TextDecoding.sniff([UInt8](data.prefix(4)))
        if encoding == .utf32BE || encoding == .utf32LE {
            guard let (text, _) = TextDecoding.decode(data) else {
                throw PropertyListError(.malformed, "the document is not valid UTF-32", at: .byteOffset(0))
            }
            return try parse(Data(text.utf8), ignoringEncodingDeclaration: true, warnings: &warnings)
        }
        return try parse(data, ignoringEncodingDeclaration: false, warnings: &warnings)
    }

    private func parse(_ data: Data, ignoringEncodingDeclaration: Bool, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        _ = Self.libxml2Ready
        let context = UnsafeMutablePointer<XMLPropertyListReaderContext>.allocate(capacity: 1)
        context.initialize(to: XMLPropertyListReaderContext(options: options))
        defer {
            context.pointee.release()
            context.deinitialize(count: 1)
            context.deallocate()
        }
        var handler = Self.makeHandler()
        // NONET: nothing from the network. No DTDLOAD, no NOENT: no DTD read, no entity substituted.
        // HUGE lifts libxml2's own depth (256) and text (10 MB) caps; `options` sets ours instead.
        // OLDSAX sends even `&amp;` and friends through `getEntity`, so the context sees them.
        var parserOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_OLDSAX.rawValue)
        if ignoringEncodingDeclaration { parserOptions |= Int32(XML_PARSE_IGNORE_ENC.rawValue) }
        let created: Bool = data.withUnsafeBytes { raw in
            let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
            let count = raw.count
            let head = min(4, count)
            // The first bytes let libxml2 detect the encoding (byte-order marks, UTF-16).
            guard let parser = xmlCreatePushParserCtxt(&handler, context, base, Int32(head), nil) else {
                return false
            }
            defer {
                context.pointee.parser = nil
                // Even in SAX mode, libxml2 builds a document of its own to record an entity
                // declaration ("SAX compatibility mode"), and only the caller frees it.
                if let document = parser.pointee.myDoc {
                    parser.pointee.myDoc = nil
                    xmlFreeDoc(document)
                }
                xmlFreeParserCtxt(parser)
            }
            context.pointee.parser = parser
            // RECOVER only so that the faults CF tolerates can be read through; the error
            // handler turns it off again at the first real error (see `libxmlError`).
            xmlCtxtUseOptions(parser, parserOptions)
            // Errors raised outside the parser proper (encoding conversion) reach this
            // thread's structured handler rather than the context's.
            xmlSetStructuredErrorFunc(context, handler.serror)
            defer { xmlSetStructuredErrorFunc(nil, nil) }
            var offset = head
            while offset < count, !context.pointee.failed {
                let length = min(Self.chunkSize, count - offset)
                _ = xmlParseChunk(parser, base.map { $0 + offset }, Int32(length), 0)
                offset += length
            }
            if !context.pointee.failed {
                _ = xmlParseChunk(parser, nil, 0, 1)
            }
            if !context.pointee.failed, parser.pointee.wellFormed == 0, context.pointee.toleratedFaults == 0 {
                context.pointee.fail(.malformed, "not well-formed XML", includingCurrent: false)
            }
            return true
        }
        guard created else {
            throw PropertyListError(.malformed, "libxml2 could not create a parser")
        }
        if let error = context.pointee.error { throw error }
        warnings += context.pointee.warnings
        guard context.pointee.stack.count == 1, let root = context.pointee.stack.popLast() else {
            throw PropertyListError(.malformed, data.isEmpty ? "empty document" : "no property list value in the document", at: .lineColumn(line: 1, column: 1))
        }
        return root
    }

    /// The SAX2 callbacks. Each only forwards to the context found in `userData`.
    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { userData, localName, prefix, _, _, _, _, _, _ in
            guard let userData, let localName else { return }
            userData.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee
                .startElement(localName, prefix: prefix)
        }
        handler.endElementNs = { userData, _, _, _ in
            guard let userData else { return }
            userData.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee.endElement()
        }
        let characters: charactersSAXFunc = { userData, bytes, count in
            guard let userData, let bytes, count > 0 else { return }
            userData.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee
                .characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
        }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        // CDATA is character data like any other (libxml2 falls back to `characters`).
        handler.cdataBlock = nil
        handler.entityDecl = { userData, name, _, _, _, _ in
            guard let userData else { return }
            userData.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee.entityDeclaration(name)
        }
        handler.unparsedEntityDecl = { userData, name, _, _, _ in
            guard let userData else { return }
            userData.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee.entityDeclaration(name)
        }
        // Only the predefined entities exist; nothing declared can be looked up.
        handler.getEntity = { userData, name in
            guard let name, let entity = xmlGetPredefinedEntity(name) else { return nil }
            userData?.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee.willExpandPredefinedEntity()
            return entity
        }
        handler.getParameterEntity = { _, _ in nil }
        // No external subset, DTD or entity is ever resolved or loaded.
        handler.externalSubset = nil
        handler.resolveEntity = nil
        handler.serror = { userData, error in
            guard let userData, let error else { return }
            userData.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee.libxmlError(error.pointee)
        }
        return handler
    }
}
