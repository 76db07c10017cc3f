import ArgumentParser
import Foundation
import PropertyList

/// The formats `convert` and `unarchive` write a value in.
enum PropertyListOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case xml, binary, json

    /// `value` in this format; JSON with `json`'s choices.
    func write(_ value: PropertyListValue, json: JSONOutputOptions) throws(PropertyListError) -> Data {
        switch self {
        case .binary: BinaryPropertyListWriter().write(value)
        case .xml: try XMLPropertyListWriter().write(value)
        case .json: try json.writer.write(value)
        }
    }
}
