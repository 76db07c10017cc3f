import Foundation

/// Core Foundation's property-list reader, called as `PropertyListSerialization` calls it, with
/// the answer read from CF's own objects.
///
/// `PropertyListSerialization.propertyList(from:options:format:)` on Linux is one call to
/// `CFPropertyListCreateWithData(kCFAllocatorSystemDefault, data, options, &format, &error)`
/// (swift-corelibs-foundation, `Sources/Foundation/PropertyListSerialization.swift`) followed by
/// a bridge to Swift values. The bridge loses what a parity check must see: a CFString with lone
/// surrogates becomes U+FFFD, canonically equivalent keys collide in a Swift dictionary (a
/// `fatalError` in the bridge, not in CF), and a 128-bit CFNumber is read as 64 bits. So the
/// oracle makes that same CF call, resolved by name in the Foundation library already loaded,
/// and reads the result with CF's accessors.
struct CoreFoundationOracle {
    typealias CFTypeRef = UnsafeRawPointer
    typealias CFTypeID = UInt

    /// CF's names for the formats (`CFPropertyListFormat`).
    enum Format: Int {
        case openStep = 1
        case xml = 100
        case binary = 200
    }

    private let dataCreate: @convention(c) (UnsafeRawPointer?, UnsafePointer<UInt8>?, Int) -> CFTypeRef?
    private let createWithData: @convention(c) (UnsafeRawPointer?, CFTypeRef, UInt, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<CFTypeRef?>?) -> CFTypeRef?
    private let release: @convention(c) (CFTypeRef) -> Void
    private let getTypeID: @convention(c) (CFTypeRef) -> CFTypeID
    private let stringGetLength: @convention(c) (CFTypeRef) -> Int
    private let stringGetCharacterAtIndex: @convention(c) (CFTypeRef, Int) -> UInt16
    private let numberIsFloatType: @convention(c) (CFTypeRef) -> UInt8
    private let numberGetValue: @convention(c) (CFTypeRef, Int, UnsafeMutableRawPointer) -> UInt8
    private let booleanGetValue: @convention(c) (CFTypeRef) -> UInt8
    private let dateGetAbsoluteTime: @convention(c) (CFTypeRef) -> Double
    private let dataGetLength: @convention(c) (CFTypeRef) -> Int
    private let dataGetBytePtr: @convention(c) (CFTypeRef) -> UnsafePointer<UInt8>?
    private let arrayGetCount: @convention(c) (CFTypeRef) -> Int
    private let arrayGetValueAtIndex: @convention(c) (CFTypeRef, Int) -> CFTypeRef?
    private let dictionaryGetCount: @convention(c) (CFTypeRef) -> Int
    private let dictionaryGetKeysAndValues: @convention(c) (CFTypeRef, UnsafeMutablePointer<CFTypeRef?>?, UnsafeMutablePointer<CFTypeRef?>?) -> Void
    private let setGetCount: @convention(c) (CFTypeRef) -> Int
    private let setGetValues: @convention(c) (CFTypeRef, UnsafeMutablePointer<CFTypeRef?>?) -> Void
    private let uidGetValue: @convention(c) (CFTypeRef) -> UInt32
    private let errorCopyDescription: @convention(c) (CFTypeRef) -> CFTypeRef?
    private let systemDefaultAllocator: UnsafeRawPointer?
    /// `kCFNull`, which is known by identity (its type ID is not CFNullGetTypeID's on Linux).
    private let null: UnsafeRawPointer?

    private let stringType: CFTypeID
    private let numberType: CFTypeID
    private let booleanType: CFTypeID
    private let dateType: CFTypeID
    private let dataType: CFTypeID
    private let arrayType: CFTypeID
    private let dictionaryType: CFTypeID
    private let setType: CFTypeID
    private let nullType: CFTypeID
    private let uidType: CFTypeID

    /// Finds CF's functions in the process with `lookup` (a symbol's address in the running
    /// process: `DynamicSymbol.address` here, `dlsym` in the fuzz package, which cannot reach
    /// the package's system module), or nil when Foundation's CF is not there.
    init?(lookup: (String) -> UnsafeMutableRawPointer?) {
        // Foundation must be loaded (and CF initialized) before its symbols are looked up.
        _ = PropertyListSerialization.self
        _ = NSNumber(value: 0).description
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            guard let address = lookup(name) else { return nil }
            return unsafeBitCast(address, to: type)
        }
        func typeID(_ name: String) -> CFTypeID? {
            symbol(name, as: (@convention(c) () -> CFTypeID).self)?()
        }
        guard let dataCreate = symbol("CFDataCreate", as: (@convention(c) (UnsafeRawPointer?, UnsafePointer<UInt8>?, Int) -> CFTypeRef?).self),
              let createWithData = symbol("CFPropertyListCreateWithData", as: (@convention(c) (UnsafeRawPointer?, CFTypeRef, UInt, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<CFTypeRef?>?) -> CFTypeRef?).self),
              let release = symbol("CFRelease", as: (@convention(c) (CFTypeRef) -> Void).self),
              let getTypeID = symbol("CFGetTypeID", as: (@convention(c) (CFTypeRef) -> CFTypeID).self),
              let stringGetLength = symbol("CFStringGetLength", as: (@convention(c) (CFTypeRef) -> Int).self),
              let stringGetCharacterAtIndex = symbol("CFStringGetCharacterAtIndex", as: (@convention(c) (CFTypeRef, Int) -> UInt16).self),
              let numberIsFloatType = symbol("CFNumberIsFloatType", as: (@convention(c) (CFTypeRef) -> UInt8).self),
              let numberGetValue = symbol("CFNumberGetValue", as: (@convention(c) (CFTypeRef, Int, UnsafeMutableRawPointer) -> UInt8).self),
              let booleanGetValue = symbol("CFBooleanGetValue", as: (@convention(c) (CFTypeRef) -> UInt8).self),
              let dateGetAbsoluteTime = symbol("CFDateGetAbsoluteTime", as: (@convention(c) (CFTypeRef) -> Double).self),
              let dataGetLength = symbol("CFDataGetLength", as: (@convention(c) (CFTypeRef) -> Int).self),
              let dataGetBytePtr = symbol("CFDataGetBytePtr", as: (@convention(c) (CFTypeRef) -> UnsafePointer<UInt8>?).self),
              let arrayGetCount = symbol("CFArrayGetCount", as: (@convention(c) (CFTypeRef) -> Int).self),
              let arrayGetValueAtIndex = symbol("CFArrayGetValueAtIndex", as: (@convention(c) (CFTypeRef, Int) -> CFTypeRef?).self),
              let dictionaryGetCount = symbol("CFDictionaryGetCount", as: (@convention(c) (CFTypeRef) -> Int).self),
              let dictionaryGetKeysAndValues = symbol("CFDictionaryGetKeysAndValues", as: (@convention(c) (CFTypeRef, UnsafeMutablePointer<CFTypeRef?>?, UnsafeMutablePointer<CFTypeRef?>?) -> Void).self),
              let setGetCount = symbol("CFSetGetCount", as: (@convention(c) (CFTypeRef) -> Int).self),
              let setGetValues = symbol("CFSetGetValues", as: (@convention(c) (CFTypeRef, UnsafeMutablePointer<CFTypeRef?>?) -> Void).self),
              let uidGetValue = symbol("_CFKeyedArchiverUIDGetValue", as: (@convention(c) (CFTypeRef) -> UInt32).self),
              let errorCopyDescription = symbol("CFErrorCopyDescription", as: (@convention(c) (CFTypeRef) -> CFTypeRef?).self),
              let allocator = lookup("kCFAllocatorSystemDefault"), let nullObject = lookup("kCFNull"),
              let stringType = typeID("CFStringGetTypeID"), let numberType = typeID("CFNumberGetTypeID"),
              let booleanType = typeID("CFBooleanGetTypeID"), let dateType = typeID("CFDateGetTypeID"),
              let dataType = typeID("CFDataGetTypeID"), let arrayType = typeID("CFArrayGetTypeID"),
              let dictionaryType = typeID("CFDictionaryGetTypeID"), let setType = typeID("CFSetGetTypeID"),
              let nullType = typeID("CFNullGetTypeID"), let uidType = typeID("_CFKeyedArchiverUIDGetTypeID")
        else { return nil }
        self.dataCreate = dataCreate
        self.createWithData = createWithData
        self.release = release
        self.getTypeID = getTypeID
        self.stringGetLength = stringGetLength
        self.stringGetCharacterAtIndex = stringGetCharacterAtIndex
        self.numberIsFloatType = numberIsFloatType
        self.numberGetValue = numberGetValue
        self.booleanGetValue = booleanGetValue
        self.dateGetAbsoluteTime = dateGetAbsoluteTime
        self.dataGetLength = dataGetLength
        self.dataGetBytePtr = dataGetBytePtr
        self.arrayGetCount = arrayGetCount
        self.arrayGetValueAtIndex = arrayGetValueAtIndex
        self.dictionaryGetCount = dictionaryGetCount
        self.dictionaryGetKeysAndValues = dictionaryGetKeysAndValues
        self.setGetCount = setGetCount
        self.setGetValues = setGetValues
        self.uidGetValue = uidGetValue
        self.errorCopyDescription = errorCopyDescription
        // `kCFAllocatorSystemDefault` is a variable holding the allocator.
        self.systemDefaultAllocator = allocator.load(as: UnsafeRawPointer?.self)
        self.null = nullObject.load(as: UnsafeRawPointer?.self)
        self.stringType = stringType
        self.numberType = numberType
        self.booleanType = booleanType
        self.dateType = dateType
        self.dataType = dataType
        self.arrayType = arrayType
        self.dictionaryType = dictionaryType
        self.setType = setType
        self.nullType = nullType
        self.uidType = uidType
    }

    /// Reads `bytes` as `PropertyListSerialization.propertyList(from:options: [], format:)` does.
    func read(_ bytes: UnsafeRawBufferPointer) -> ParityOutcome {
        guard let data = dataCreate(systemDefaultAllocator, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) else {
            return .refused(message: "CFDataCreate failed")
        }
        defer { release(data) }
        var format = 0
        var error: CFTypeRef?
        // Options 0: kCFPropertyListImmutable, every format tried (binary, XML, then OpenStep).
        guard let plist = createWithData(systemDefaultAllocator, data, 0, &format, &error) else {
            var message = "refused"
            if let error {
                if let description = errorCopyDescription(error) {
                    message = string(description)
                    release(description)
                }
                release(error)
            }
            return .refused(message: message)
        }
        defer { release(plist) }
        if let error { release(error) }
        let parityFormat: ParityFormat
        switch Format(rawValue: format) {
        case .openStep: parityFormat = .openStep
        case .xml: parityFormat = .xml
        case .binary: parityFormat = .binary
        case nil: parityFormat = .unknown
        }
        return .accepted(format: parityFormat, value: value(plist))
    }

    private func string(_ s: CFTypeRef) -> String {
        String(decoding: units(s), as: UTF16.self)
    }

    private func units(_ s: CFTypeRef) -> [UInt16] {
        let count = stringGetLength(s)
        var units = [UInt16]()
        units.reserveCapacity(count)
        for i in 0..<count { units.append(stringGetCharacterAtIndex(s, i)) }
        return units
    }

    /// CF's object as a parity value, every type kept as CF holds it.
    private func value(_ object: CFTypeRef) -> ParityValue {
        if object == null { return .null }
        let type = getTypeID(object)
        switch type {
        case stringType:
            return .string(units(object))
        case numberType:
            if numberIsFloatType(object) != 0 {
                var d = 0.0
                _ = numberGetValue(object, 6, &d)   // kCFNumberFloat64Type
                return .real(d.bitPattern)
            }
            // kCFNumberSInt128Type: { int64 high; uint64 low }, little-endian in memory.
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutablePointer(to: &words) { _ = numberGetValue(object, 17, UnsafeMutableRawPointer($0)) }
            return .integer(high: Int64(bitPattern: words.0), low: words.1)
        case booleanType:
            return .bool(booleanGetValue(object) != 0)
        case dateType:
            return .date(dateGetAbsoluteTime(object).bitPattern)
        case dataType:
            let count = dataGetLength(object)
            guard count > 0, let p = dataGetBytePtr(object) else { return .data([]) }
            return .data(Array(UnsafeBufferPointer(start: p, count: count)))
        case arrayType:
            let count = arrayGetCount(object)
            return .array((0..<count).map { i in arrayGetValueAtIndex(object, i).map(value) ?? .unknown("nil element") })
        case dictionaryType:
            let count = dictionaryGetCount(object)
            var keys = [CFTypeRef?](repeating: nil, count: count)
            var values = [CFTypeRef?](repeating: nil, count: count)
            dictionaryGetKeysAndValues(object, &keys, &values)
            return .dictionary(zip(keys, values).map { k, v in
                ParityValue.Entry(key: k.map(value) ?? .unknown("nil key"), value: v.map(value) ?? .unknown("nil value"))
            })
        case setType:
            let count = setGetCount(object)
            var members = [CFTypeRef?](repeating: nil, count: count)
            setGetValues(object, &members)
            return .set(members.map { $0.map(value) ?? .unknown("nil member") })
        case nullType:
            return .null
        case uidType:
            return .uid(UInt64(uidGetValue(object)))
        default:
            return .unknown("CF type \(type)")
        }
    }
}
