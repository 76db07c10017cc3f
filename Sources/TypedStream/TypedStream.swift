import Foundation

/// An NSArchiver typedstream, read into its values, objects and classes without any of the
/// classes that wrote it.
///
/// NSArchiver (and NeXTSTEP's NXTypedStream before it) writes a header, then groups of values,
/// each group after its Objective-C type encoding. Objects are written in full the first time
/// (class chain, then the groups of their `-encodeWithCoder:`, then an end tag) and by reference
/// after; classes and C strings are shared the same way, and type encodings and class names
/// through a table of shared strings. Everything here is what the bytes say; what the values of
/// a known class mean is read one layer up (`KeyedArchive(typedStream:)`).
public struct TypedStream: Sendable, Hashable {
    public var header: TypedStreamHeader
    /// The top-level groups, in order: for `+[NSArchiver archivedDataWithRootObject:]`, one
    /// group holding the root object; `.clr` files and others write several.
    public var contents: [TypedStreamGroup]
    /// Every object written in full, in the order the stream introduced them.
    public var objects: [TypedStreamObject]
    /// Every class written, in the order the stream introduced them.
    public var classes: [TypedStreamClass]

    public init(header: TypedStreamHeader, contents: [TypedStreamGroup], objects: [TypedStreamObject], classes: [TypedStreamClass]) {
        self.header = header
        self.contents = contents
        self.objects = objects
        self.classes = classes
    }

    /// Reads a whole stream.
    ///
    /// - Throws: `TypedStreamError`: `.notATypedStream` when the header is not one,
    ///   `.truncated` when the bytes end inside a value, `.malformed` with the byte offset, class
    ///   and field of anything else, `.limitExceeded` when `options` stops it.
    public init(data: Data, options: TypedStreamReadOptions = .default) throws(TypedStreamError) {
        self = try data.withUnsafeBytesTyped { raw throws(TypedStreamError) in
            var reader = try TypedStreamReader(bytes: raw, options: options)
            return try reader.readStream()
        }
    }

    /// Whether `data` starts with a typedstream header: streamer version 3 or 4, then the
    /// 11-byte signature `typedstream` or `streamtyped`.
    public static func isTypedStream(_ data: Data) -> Bool {
        data.withUnsafeBytes { header(in: $0) != nil }
    }

    /// The header's streamer version and byte order, when `bytes` start with one.
    static func header(in bytes: UnsafeRawBufferPointer) -> (streamerVersion: Int, byteOrder: TypedStreamByteOrder)? {
        guard bytes.count >= 13, bytes[0] == 3 || bytes[0] == 4, bytes[1] == 11 else { return nil }
        let signature = bytes[2..<13]
        if signature.elementsEqual(bigEndianSignature) { return (Int(bytes[0]), .bigEndian) }
        if signature.elementsEqual(littleEndianSignature) { return (Int(bytes[0]), .littleEndian) }
        return nil
    }

    static let bigEndianSignature = Array("typedstream".utf8)
    static let littleEndianSignature = Array("streamtyped".utf8)

    /// The class of an object and its superclasses' names, most derived first.
    public func classChain(of object: TypedStreamObject) -> [String] {
        classChain(ofClass: object.classIndex)
    }

    /// A class's name and its superclasses' names, most derived first.
    public func classChain(ofClass start: Int) -> [String] {
        var names: [String] = []
        var next: Int? = start
        // A chain can only point to classes introduced before it, so it ends; the bound is for
        // a stream built by hand.
        while let index = next, index < classes.count, names.count <= classes.count {
            names.append(classes[index].name)
            next = classes[index].superclass
        }
        return names
    }

    /// Each class name with how many objects have it, in order of first appearance.
    public var classCounts: [(name: String, count: Int)] {
        var counts = [Int](repeating: 0, count: classes.count)
        for object in objects { counts[object.classIndex] += 1 }
        return classes.indices.compactMap { counts[$0] > 0 ? (classes[$0].name, counts[$0]) : nil }
    }
}
