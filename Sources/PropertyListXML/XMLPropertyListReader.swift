internal import CLibXML2
import Foundation
import PropertyList

/// Reads XML property lists as Core Foundation's parser reads them: libxml2 parses the
/// elements, and `XMLPropertyListLexer` applies CF's byte-level rules around it.
///
/// CF's parser is not an XML parser (CFPropertyList.c): it picks the text's encoding its own
/// way, skips anything before the first element and ignores anything after it, never reads an
/// attribute, and reads scalar text as bytes. The lexer does all of that, reads every scalar's
/// value by CF's rules, and hands libxml2 the document's elements alone, which libxml2 parses
/// (nesting and end tags) with its SAX events building the tree. No DTD, entity declaration or
/// network access ever reaches libxml2: a DOCTYPE with an internal subset is refused, as CF
/// refuses it, and only the five predefined entities and character references are read. The
/// root value may be wrapped in `<plist>` or stand alone, as CF allows.
public struct XMLPropertyListReader: PropertyListTextReader {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// libxml2 wants one initialization before any thread parses.
    private static let libxml2Ready: Void = xmlInitParser()

    /// Reads one XML property list, adding a warning for each key repeated in a `<dict>`
    /// (resolved as `options.duplicateKeys` says) to `warnings`.
    ///
    /// A document CF's rules refuse is read again beyond them when
    /// `options.readsBeyondCoreFoundation` is on (the default): UTF-16 or UTF-32 without a
    /// byte-order mark (as the XML specification's appendix F detects it), and comments inside
    /// strings, each with a `.beyondCoreFoundation` warning. With
    /// `options.requiresWellFormedInput`, a DOCTYPE must be well-formed and nothing but comments,
    /// processing instructions and whitespace may follow the root, which CF does not ask.
    public func read(_ data: Data, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        do throws(PropertyListError) {
            return try read(data, beyondCoreFoundation: false, warnings: &warnings)
        } catch {
            guard options.readsXMLBeyondCoreFoundation(after: error, data: data) else { throw error }
            return try read(data, beyondCoreFoundation: true, refusedWith: error, warnings: &warnings)
        }
    }

    /// One reading: by CF's rules, or beyond them. A reading beyond them that fails, or reads
    /// nothing CF refuses, throws `refusedWith`, CF's refusal.
    func read(_ data: Data, beyondCoreFoundation: Bool, refusedWith: PropertyListError? = nil,
              warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        try options.checkInputSize(data.count)
        let value: PropertyListValue, found: [PropertyListWarning]
        do throws(PropertyListError) {
            (value, found) = try data.withUnsafeBytesTyped { raw throws(PropertyListError) in
                if beyondCoreFoundation, let wide = UnmarkedWideEncoding(data) {
                    return try Self.withText(raw, forcing: wide) { text throws(PropertyListError) in
                        var (value, found) = try parse(text, beyondCoreFoundation: true, quotingAttributes: true)
                        found.insert(PropertyListWarning(
                            .beyondCoreFoundation, "read XML in \(wide.name) without a byte-order mark; Core Foundation refuses this document",
                            at: .byteOffset(0)), at: 0)
                        return (value, found)
                    }
                }
                return try Self.withText(raw) { text throws(PropertyListError) in
                    guard options.readsBeyondCoreFoundation else { return try parse(text, beyondCoreFoundation: beyondCoreFoundation, quotingAttributes: false) }
                    // Tags are read as XML reads them (a `>` inside a quoted attribute value ends
                    // none); where that reading fails, CF's reading of the tags is the answer.
                    do throws(PropertyListError) {
                        let read = try parse(text, beyondCoreFoundation: beyondCoreFoundation, quotingAttributes: true)
                        // A `>` inside a quoted attribute was read as XML reads it; where CF's
                        // reading of the tags gives the same value, it is CF's answer, and no
                        // departure (found by FuzzParity).
                        guard !beyondCoreFoundation, read.1.contains(where: { $0.code == .beyondCoreFoundation }) else { return read }
                        if let cf = try? parse(text, beyondCoreFoundation: false, quotingAttributes: false), cf.0 == read.0 { return cf }
                        return read
                    } catch {
                        return try parse(text, beyondCoreFoundation: beyondCoreFoundation, quotingAttributes: false)
                    }
                }
            }
        } catch {
            throw refusedWith ?? error
        }
        if let refusedWith, !found.contains(where: { $0.code == .beyondCoreFoundation }) { throw refusedWith }
        warnings += found
        return value
    }

    /// Calls `body` with the document as UTF-8, as CF converts it before its XML parser reads
    /// it (see `CoreFoundationText`).
    /// `forcing` reads the text in that encoding instead, beyond CF.
    static func withText<R>(_ raw: UnsafeRawBufferPointer, forcing: UnmarkedWideEncoding? = nil,
                            _ body: (UnsafeBufferPointer<UInt8>) throws(PropertyListError) -> R) throws(PropertyListError) -> R {
        let encoding: CoreFoundationText.Encoding
        switch forcing {
        case .utf16BE: encoding = .utf16BE(skip: 0)
        case .utf16LE: encoding = .utf16LE(skip: 0)
        case .utf32BE: encoding = .utf32BE(skip: 0)
        case .utf32LE: encoding = .utf32LE(skip: 0)
        case nil:
            do throws(CoreFoundationText.Failure) {
                encoding = try CoreFoundationText.encoding(of: raw)
            } catch {
                throw error.propertyListError
            }
        }
        let converted: [UInt8]
        switch encoding {
        case .utf8(let skip):
            return try body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[skip...]))
        case .utf16BE(let skip), .utf16LE(let skip), .utf32BE(let skip), .utf32LE(let skip):
            converted = CoreFoundationText.utf8(stoppingAtLoneSurrogate: try CoreFoundationText.wideDocumentUnits(raw, encoding, skip: skip))
        case .latin1:
            converted = CoreFoundationText.utf8(ofSingleBytes: raw, nextStep: false)
        case .nextStep:
            converted = CoreFoundationText.utf8(ofSingleBytes: raw, nextStep: true)
        case .macRoman:
            converted = CoreFoundationText.utf8(ofSingleBytes: raw, nextStep: false, macRoman: true)
        case .foundation(let encoding):
            converted = try CoreFoundationText.utf8(ofDocument: raw, in: encoding)
        case .declared(let name):
            guard let text = Self.convert(raw, from: name) else {
                throw PropertyListError(.malformed, "cannot read the document as \(name), the encoding it declares", at: .byteOffset(0))
            }
            converted = text
        }
        return try converted.withUnsafeBufferPointer { text throws(PropertyListError) in try body(text) }
    }

    /// The bytes converted to UTF-8 by libxml2's converter for a declared encoding.
    static func convert(_ raw: UnsafeRawBufferPointer, from name: String) -> [UInt8]? {
        _ = Self.libxml2Ready
        // libxml2 reports a conversion error through its generic handler, on stderr: silenced,
        // since the failure is the answer.
        // (Its callback takes C varargs, which Swift cannot define; a function of the same
        // shape that ignores them is called the same way.)
        let silence = unsafeBitCast({ (_: UnsafeMutableRawPointer?, _: UnsafePointer<CChar>?) in }
            as @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void, to: xmlGenericErrorFunc.self)
        xmlSetGenericErrorFunc(nil, silence)
        defer { xmlSetGenericErrorFunc(nil, nil) }
        guard let handler = xmlFindCharEncodingHandler(name) else { return nil }
        defer { xmlCharEncCloseFunc(handler) }
        guard let input = xmlBufferCreateSize(raw.count + 1), let output = xmlBufferCreateSize(raw.count * 2 + 16) else { return nil }
        defer {
            xmlBufferFree(input)
            xmlBufferFree(output)
        }
        if let bytes = raw.baseAddress, !raw.isEmpty {
            guard xmlBufferAdd(input, bytes.assumingMemoryBound(to: xmlChar.self), Int32(raw.count)) == 0 else { return nil }
        }
        // Converts the whole input; a byte the encoding cannot read fails it.
        let written = xmlCharEncInFunc(handler, output, input)
        guard written >= 0, xmlBufferLength(input) == 0, let content = xmlBufferContent(output) else { return nil }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(output))))
    }

    /// Lexes the text by CF's rules and parses its elements with libxml2, a piece at a time:
    /// the lexer reads on until it has a piece of skeleton, libxml2 parses it, and its events
    /// take the lexer's values, which are then dropped.
    private func parse(_ text: UnsafeBufferPointer<UInt8>, beyondCoreFoundation: Bool, quotingAttributes: Bool) throws(PropertyListError) -> (PropertyListValue, [PropertyListWarning]) {
        let lexer = UnsafeMutablePointer<XMLPropertyListLexer>.allocate(capacity: 1)
        lexer.initialize(to: XMLPropertyListLexer(text: text, options: options))
        lexer.pointee.beyondCoreFoundation = beyondCoreFoundation
        lexer.pointee.quotesAttributes = quotingAttributes
        defer {
            lexer.deinitialize(count: 1)
            lexer.deallocate()
        }
        try lexer.pointee.lexPrologue()
        _ = Self.libxml2Ready
        let context = UnsafeMutablePointer<XMLPropertyListReaderContext>.allocate(capacity: 1)
        context.initialize(to: XMLPropertyListReaderContext(options: options, lexer: UnsafePointer(lexer)))
        defer {
            context.pointee.release()
            context.deinitialize(count: 1)
            context.deallocate()
        }
        var handler = Self.makeHandler()
        // NONET: nothing from the network; HUGE lifts libxml2's own depth cap (256), which the
        // lexer's `maximumDepth` replaces. The skeleton holds no DTD, entity or text.
        let parserOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue)
        guard let parser = xmlCreatePushParserCtxt(&handler, context, nil, 0, nil) else {
            throw PropertyListError(.malformed, "libxml2 could not create a parser")
        }
        defer {
            context.pointee.parser = nil
            if let document = parser.pointee.myDoc {
                parser.pointee.myDoc = nil
                xmlFreeDoc(document)
            }
            xmlFreeParserCtxt(parser)
        }
        context.pointee.parser = parser
        xmlCtxtUseOptions(parser, parserOptions)
        xmlSetStructuredErrorFunc(context, handler.serror)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        func push(last: Bool) {
            lexer.pointee.skeleton.withUnsafeBufferPointer { skeleton in
                skeleton.withMemoryRebound(to: CChar.self) { chars in
                    _ = xmlParseChunk(parser, chars.baseAddress, Int32(chars.count), last ? 1 : 0)
                }
            }
            lexer.pointee.dropConsumed(scalars: context.pointee.nextScalar)
            context.pointee.nextScalar = 0
        }
        while true {
            let finished: Bool
            do throws(PropertyListError) {
                finished = try lexer.pointee.lexElements(skeletonLimit: XMLPropertyListLexer.pieceSize)
            } catch {
                // What comes before the lexer's error is parsed first: an error the nesting
                // shows there comes first in the document.
                push(last: false)
                if let earlier = context.pointee.error { throw earlier }
                throw error
            }
            push(last: finished)
            if context.pointee.failed || finished { break }
        }
        if !context.pointee.failed, parser.pointee.wellFormed == 0 {
            context.pointee.fail(.malformed, "not well-formed XML", includingCurrent: false)
        }
        if let error = context.pointee.error { throw error }
        guard context.pointee.stack.count == 1, let root = context.pointee.stack.popLast() else {
            throw PropertyListError(.malformed, "no property list value in the document", at: .lineColumn(line: 1, column: 1))
        }
        if options.requiresWellFormedInput { try lexer.pointee.checkNothingFollowsRoot() }
        return (root, lexer.pointee.beyondWarnings + context.pointee.warnings)
    }

    /// The SAX2 callbacks. Each only forwards to the context found in `userData`.
    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { userData, localName, _, _, _, _, _, _, _ in
            guard let userData, let localName else { return }
            userData.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee.startElement(localName)
        }
        handler.endElementNs = { userData, _, _, _ in
            guard let userData else { return }
            userData.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee.endElement()
        }
        // The skeleton has no text, no entity and no DTD; nothing else is ever resolved.
        handler.getEntity = { _, _ in nil }
        handler.getParameterEntity = { _, _ in nil }
        handler.externalSubset = nil
        handler.resolveEntity = nil
        handler.serror = { userData, error in
            guard let userData, let error else { return }
            userData.assumingMemoryBound(to: XMLPropertyListReaderContext.self).pointee.libxmlError(error.pointee)
        }
        return handler
    }
}

