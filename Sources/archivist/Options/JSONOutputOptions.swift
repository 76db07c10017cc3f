import ArgumentParser
import PropertyList

/// JSON output choices, named after JSONEncoder's strategies, with its defaults.
struct JSONOutputOptions: ParsableArguments {
    enum DateStrategy: String, ExpressibleByArgument, CaseIterable {
        case deferredToDate, secondsSince1970, millisecondsSince1970, iso8601

        var library: JSONWriteOptions.DateEncodingStrategy {
            switch self {
            case .deferredToDate: .deferredToDate
            case .secondsSince1970: .secondsSince1970
            case .millisecondsSince1970: .millisecondsSince1970
            case .iso8601: .iso8601
            }
        }
    }

    enum DataStrategy: String, ExpressibleByArgument, CaseIterable {
        case base64, deferredToData

        var library: JSONWriteOptions.DataEncodingStrategy { self == .base64 ? .base64 : .deferredToData }
    }

    @Option(help: "How dates are written: deferredToDate (seconds since 2001, JSONEncoder's default), secondsSince1970, millisecondsSince1970 or iso8601.")
    var dateStrategy: DateStrategy = .deferredToDate

    @Option(help: "How data is written: base64 (JSONEncoder's default) or deferredToData (an array of bytes).")
    var dataStrategy: DataStrategy = .base64

    @Option(help: ArgumentHelp("Write NaN and the infinities as these strings instead of failing.", valueName: "INF,-INF,NAN"))
    var nonConformingFloats: String?

    @Flag(help: "Indent the JSON.")
    var pretty = false

    @Flag(help: "Sort object keys.")
    var sortedKeys = false

    @Flag(help: "Write / as is rather than as \\/.")
    var withoutEscapingSlashes = false

    func validate() throws {
        if let nonConformingFloats, nonConformingFloats.split(separator: ",", omittingEmptySubsequences: false).count != 3 {
            throw ValidationError("--non-conforming-floats takes three comma-separated strings: INF,-INF,NAN")
        }
    }

    var options: JSONWriteOptions {
        var o = JSONWriteOptions()
        o.dateEncodingStrategy = dateStrategy.library
        o.dataEncodingStrategy = dataStrategy.library
        if let nonConformingFloats {
            let parts = nonConformingFloats.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 3 {
                o.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: parts[0], negativeInfinity: parts[1], nan: parts[2])
            }
        }
        if pretty { o.outputFormatting.insert(.prettyPrinted) }
        if sortedKeys { o.outputFormatting.insert(.sortedKeys) }
        if withoutEscapingSlashes { o.outputFormatting.insert(.withoutEscapingSlashes) }
        return o
    }

    var writer: JSONPropertyListWriter { JSONPropertyListWriter(options: options) }
}
