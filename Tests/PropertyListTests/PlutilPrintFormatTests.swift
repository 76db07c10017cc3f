import Foundation
import Testing
@testable import PropertyList

/// `plutil -p`'s layout, for the drop-in plutil.
@Suite struct PlutilPrintFormatTests {
    @Test func dataIsDescribedAsFoundationDescribesIt() {
        #expect(PlutilPrintFormat.dataDescription(Data([0x89, 0x50, 0x4E, 0x47])) == "{length = 4, bytes = 0x89504e47}")
        #expect(PlutilPrintFormat.dataDescription(Data(0..<10)) == "{length = 10, bytes = 0x00010203 04050607 0809}")
        #expect(PlutilPrintFormat.dataDescription(Data(0..<40)) == "{length = 40, bytes = 0x00010203 04050607 08090a0b 0c0d0e0f ... 20212223 24252627}")
    }

    @Test func everyTypeIsPrintedInPlutilsWay() {
        let value: PropertyListValue = [
            "b": [1, 0.5, 1e20, true],
            "a": .date(Date(timeIntervalSinceReferenceDate: 0)),
            "c": ["inner": "text with \"quotes\""],
            "Item10": .uid(3), "item9": .dictionary(PropertyListDictionary()),
        ]
        #expect(PlutilPrintFormat.text(value) == """
            {
              "a" => 2001-01-01 00:00:00 +0000
              "b" => [
                0 => 1
                1 => 0.5
                2 => 1e+20
                3 => true
              ]
              "c" => {
                "inner" => "text with "quotes""
              }
              "item9" => {
              }
              "Item10" => <CFKeyedArchiverUID>{value = 3}
            }

            """)
    }
}
