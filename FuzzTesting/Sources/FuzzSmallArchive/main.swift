import Foundation
import FuzzDriver
import KeyedArchive
import PropertyList

/// libFuzzer entry point, differential: bytes → `SmallArchiveReader` (the in-place reader scans
/// and migrations use for small archives) against `KeyedArchive(data:)` and
/// `KeyedArchiveClassIndex(data:)`. Where the reader reads an archive or a class index, it must
/// be theirs; where they fail, the reader must read nothing. One reader per set of limits
/// serves the whole run, so what it keeps from one input to the next (classes, keys, the last
/// index) is exercised as a column's rows exercise it. The last byte picks the limits. Then the
/// bytes as a JSON number, whose real must be the one `Double(String)` reads (`DecimalText`'s
/// fast path). A disagreement stops the run.
let optionSets: [KeyedArchiveReadOptions] = {
    var small = KeyedArchiveReadOptions()
    small.propertyList.maximumObjectCount = 40
    small.propertyList.maximumDecodedSize = 300
    var shallow = KeyedArchiveReadOptions()
    shallow.propertyList.maximumDepth = 5
    shallow.maximumDepth = 4
    var top = KeyedArchiveReadOptions()
    top.topKey = "$0"
    return [.default, small, shallow, top]
}()
// One reader per set of limits for the whole run; libFuzzer calls from one thread.
nonisolated(unsafe) let readers = optionSets.map { _ in SmallArchiveReader() }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSmallArchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let choice = Int(data.last ?? 0) % optionSets.count
    let options = optionSets[choice], reader = readers[choice]
    if let small = reader.archive(data, options: options) {
        guard let ordinary = try? KeyedArchive(data: data, options: options) else {
            fatalError("SmallArchiveReader reads an archive KeyedArchive(data:) refuses")
        }
        guard small == ordinary, small.plist == ordinary.plist else { fatalError("SmallArchiveReader reads another archive") }
    }
    if let index = reader.classIndex(data, options: options) {
        guard let plain = KeyedArchiveClassIndex(data: data, options: options) else {
            fatalError("SmallArchiveReader gives a class index KeyedArchiveClassIndex(data:) does not")
        }
        var mine: [String] = [], theirs: [String] = []
        index.forEachObject { uid, archivedClass, inline in mine.append("\(uid) \(archivedClass.map { "\($0.uid) \($0.name) \($0.chain) \($0.hints)" } ?? inline ?? "")") }
        plain.forEachObject { uid, archivedClass, inline in theirs.append("\(uid) \(archivedClass.map { "\($0.uid) \($0.name) \($0.chain) \($0.hints)" } ?? inline ?? "")") }
        guard mine == theirs, index.objectCount == plain.objectCount, index.classes == plain.classes else {
            fatalError("SmallArchiveReader gives another class index")
        }
    }
    // A JSON number: the real the reader gives is the one `Double(String)` reads, bit for bit.
    if count <= 64, let text = String(data: data, encoding: .ascii),
       text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }),
       case .array(let elements)? = try? JSONPropertyListReader().read(Data("[\(text)]".utf8)),
       elements.count == 1, case .real(let real) = elements[0] {
        guard let expected = Double(text), expected.bitPattern == real.bitPattern else {
            fatalError("the JSON reader reads \(text) as \(real), Double(String) as \(String(describing: Double(text)))")
        }
    }
    return 0
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzSmallArchive))
