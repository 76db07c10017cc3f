import Foundation

/// Where the XML property-list reader plugs into this module.
///
/// XML is read with libxml2, which PropertyList does not link, so that it (and KeyedArchive and
/// ArchivePayload over it) builds where libxml2 is absent, as in an app for iOS. The reader is
/// `XMLPropertyListReader`, in the PropertyListXML module, and it registers itself here when
/// the program or library that links that module is loaded (a constructor in
/// CXMLReaderRegistration calls it; no code has to). Until then `PropertyListReader` refuses
/// XML input (`.unrecognizedFormat`, naming the module), and the OpenStep reader cannot convert
/// text in an encoding only the document's declaration names.
package enum XMLReaderRegistration {
    /// Makes `reader` the one `PropertyListReader` and the OpenStep reader use.
    package static func register(_ reader: any XMLPropertyListReading) {
        slot.lock.lock()
        defer { slot.lock.unlock() }
        slot.reader = reader
    }

    /// The registered reader, if a linked module registered one.
    package static var reader: (any XMLPropertyListReading)? {
        slot.lock.lock()
        defer { slot.lock.unlock() }
        return slot.reader
    }

    /// The error for XML input when no reader is registered.
    package static var missingReader: PropertyListError {
        PropertyListError(.unrecognizedFormat, "XML property lists are read by the PropertyListXML module, which this program does not link",
                          at: .byteOffset(0))
    }

    /// The reader behind a lock: registration happens at load time, but a library loaded later
    /// may register while other threads read.
    private final class Slot: @unchecked Sendable {
        let lock = NSLock()
        var reader: (any XMLPropertyListReading)?
    }

    private static let slot = Slot()
}

/// What PropertyList needs from the XML reader it cannot link (see `XMLReaderRegistration`).
package protocol XMLPropertyListReading: Sendable {
    /// Reads one XML property list as `XMLPropertyListReader` does, adding a warning for each
    /// key repeated in a `<dict>` to `warnings`.
    func read(_ data: Data, options: PropertyListReadOptions, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue

    /// One reading: by CF's rules, or beyond them (`beyondCoreFoundation`, see
    /// `PropertyListReadOptions.readsBeyondCoreFoundation`); a reading beyond them that fails, or
    /// reads nothing CF refuses, throws `refusedWith`, CF's refusal. `PropertyListReader` calls
    /// it to try the formats in CF's order before it reads beyond CF.
    func read(_ data: Data, options: PropertyListReadOptions, beyondCoreFoundation: Bool, refusedWith: PropertyListError?,
              warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue

    /// `raw` converted to UTF-8 from the encoding `name` names (one libxml2 knows and CF's own
    /// tables do not), or nil when that encoding is unknown or a byte is not valid in it.
    func convert(_ raw: UnsafeRawBufferPointer, from name: String) -> [UInt8]?
}
