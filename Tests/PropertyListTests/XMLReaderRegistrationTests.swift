import Foundation
import PropertyList
import PropertyListXML
import Testing

/// PropertyList reads XML through the reader PropertyListXML registers as it is loaded
/// (CXMLReaderRegistration's constructor); nothing in this test bundle registers it by hand.
struct XMLReaderRegistrationTests {
    @Test func linkingPropertyListXMLRegistersItsReaderBeforeAnyTestRuns() {
        #expect(XMLReaderRegistration.reader is XMLPropertyListReader)
    }

    @Test func theFormatDetectingReaderReadsXMLThroughTheRegisteredReader() throws {
        let data = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>name</key><string>Ada</string><key>age</key><integer>36</integer><key>age</key><integer>37</integer></dict></plist>
            """.utf8)
        var warnings: [PropertyListWarning] = []
        let (value, format) = try PropertyListReader().read(data, warnings: &warnings)
        var direct: [PropertyListWarning] = []
        #expect(format == .xml)
        #expect(value == ["name": "Ada", "age": 37])
        #expect(value == (try XMLPropertyListReader().read(data, warnings: &direct)))
        #expect(warnings == direct && warnings.count == 1)
        #expect(try PropertyListReader().read(data, as: .xml) == value)
    }

    @Test func xmlThatFailsIsReportedAsTheXMLReadersError() {
        let data = Data("<?xml version=\"1.0\"?><plist><dict><key>a</key></dict></plist>".utf8)
        let viaHook = #expect(throws: PropertyListError.self) { try PropertyListReader().read(data) }
        let direct = #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(data) }
        #expect(viaHook == direct)
    }
}
