import Foundation
import PropertyList

/// This reader is the one PropertyList reaches through `XMLReaderRegistration`, so that
/// `PropertyListReader` (and every reader of archives over it) reads XML wherever this module is
/// linked.
extension XMLPropertyListReader: XMLPropertyListReading {
    package func read(_ data: Data, options: PropertyListReadOptions, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        try XMLPropertyListReader(options: options).read(data, warnings: &warnings)
    }

    package func read(_ data: Data, options: PropertyListReadOptions, beyondCoreFoundation: Bool, refusedWith: PropertyListError?,
                      warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        try XMLPropertyListReader(options: options).read(data, beyondCoreFoundation: beyondCoreFoundation, refusedWith: refusedWith, warnings: &warnings)
    }

    package func convert(_ raw: UnsafeRawBufferPointer, from name: String) -> [UInt8]? {
        Self.convert(raw, from: name)
    }
}

/// Registers the reader with PropertyList. CXMLReaderRegistration's constructor calls it once,
/// as the image that links this module is loaded; nothing else needs to.
@_cdecl("archivist_register_xml_property_list_reader")
package func registerXMLPropertyListReader() {
    XMLReaderRegistration.register(XMLPropertyListReader())
}
