import Foundation

/// A compiled nib in the `NIBArchive` format, read into its tables without any of the classes
/// that wrote it.
///
/// Interface Builder (`ibtool`) compiles a `.xib` or storyboard for iOS, and for macOS 10.13 and
/// later (`keyedobjects-101300.nib`), into this format rather than an NSKeyedArchiver plist:
/// the magic `NIBArchive`, a header of counts and offsets, then four tables. Each object names
/// its class and a run of values; each value names its key and holds a scalar, bytes, nil or a
/// reference to another object. Object 0 is the root (an `NSObject` whose `IB.objectdata` is the
/// `NSIBObjectData` of the nib). What the values of a class mean is read one layer up
/// (`KeyedArchive(nibArchive:)`).
public struct NIBArchive: Sendable, Hashable {
    public var header: NIBArchiveHeader
    public var objects: [NIBArchiveObject]
    public var keys: [String]
    public var values: [NIBArchiveValue]
    public var classNames: [NIBArchiveClassName]

    public init(header: NIBArchiveHeader, objects: [NIBArchiveObject], keys: [String], values: [NIBArchiveValue],
                classNames: [NIBArchiveClassName]) {
        self.header = header
        self.objects = objects
        self.keys = keys
        self.values = values
        self.classNames = classNames
    }

    /// Reads a whole archive: the header first, every table's place checked against the bytes,
    /// then the tables, then every index between them.
    ///
    /// - Throws: `NIBArchiveError`: `.notANIBArchive` when the magic is missing, `.truncated`
    ///   when a table runs past the end, `.malformed` with the table, entry and byte offset of
    ///   anything else, `.limitExceeded` when `options` stops it.
    public init(data: Data, options: NIBArchiveReadOptions = .default) throws(NIBArchiveError) {
        self = try data.withUnsafeBytesTyped { raw throws(NIBArchiveError) in
            var reader = try NIBArchiveReader(bytes: raw, options: options)
            return try reader.readArchive()
        }
    }

    /// The 10 bytes every NIBArchive starts with.
    public static let magic = Array("NIBArchive".utf8)

    /// Whether `data` starts with the `NIBArchive` magic.
    public static func isNIBArchive(_ data: Data) -> Bool {
        data.count >= magic.count && data.prefix(magic.count).elementsEqual(magic)
    }

    /// The class name of `object`.
    public func className(of object: NIBArchiveObject) -> String {
        classNames[object.classIndex].name
    }

    /// The key and value of each of `object`'s values, in the order written. A key may repeat:
    /// `UINibEncoderEmptyKey` holds each value encoded without a key (a collection's elements).
    public func fields(of object: NIBArchiveObject) -> [(key: String, value: NIBArchiveValue.Content)] {
        values[object.valueRange].map { (keys[$0.keyIndex], $0.content) }
    }

    /// Each class name with how many objects have it, in order of first appearance.
    public var classCounts: [(name: String, count: Int)] {
        var counts = [Int](repeating: 0, count: classNames.count)
        var order: [Int] = []
        for object in objects {
            if counts[object.classIndex] == 0 { order.append(object.classIndex) }
            counts[object.classIndex] += 1
        }
        return order.map { (classNames[$0].name, counts[$0]) }
    }
}
