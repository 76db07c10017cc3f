import ArgumentParser
import PropertyList

/// The value `set`, `insert` and `replace` put at a key path: one of plutil's types, given as
/// `--TYPE VALUE` (or `--array`, `--dictionary` for an empty one).
struct NewValueOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A bool: true, false, yes, no, 1 or 0.", valueName: "VALUE"))
    var bool: String?

    @Option(help: ArgumentHelp("An integer that fits 64 bits, signed or unsigned.", valueName: "VALUE"))
    var integer: String?

    @Option(help: ArgumentHelp("A floating-point number.", valueName: "VALUE"))
    var float: String?

    @Option(help: ArgumentHelp("A string, as given (UTF-8).", valueName: "VALUE"))
    var string: String?

    @Option(help: ArgumentHelp("A date as XML property lists write it: 2024-05-01T12:00:00Z.", valueName: "VALUE"))
    var date: String?

    @Option(help: ArgumentHelp("Data, in base64.", valueName: "BASE64"))
    var data: String?

    @Option(help: ArgumentHelp("A property list document (XML, or any format archivist reads), for a collection.", valueName: "PLIST"))
    var xml: String?

    @Option(help: ArgumentHelp("A JSON value, for a collection or a scalar.", valueName: "JSON"))
    var json: String?

    @Flag(help: "An empty array.")
    var array = false

    @Flag(help: "An empty dictionary.")
    var dictionary = false

    /// The type and text given, when exactly one was.
    var given: [(PropertyListValueArgument, String)] {
        var out: [(PropertyListValueArgument, String)] = []
        for (type, text) in [(PropertyListValueArgument.bool, bool), (.integer, integer), (.float, float), (.string, string),
                             (.date, date), (.data, data), (.xml, xml), (.json, json)] {
            if let text { out.append((type, text)) }
        }
        if array { out.append((.array, "")) }
        if dictionary { out.append((.dictionary, "")) }
        return out
    }

    func validate() throws {
        let given = given
        guard given.count == 1, let (type, text) = given.first else {
            throw ValidationError(given.isEmpty
                ? "give the value as one of --bool, --integer, --float, --string, --date, --data, --xml, --json VALUE, or --array, --dictionary"
                : "give one value, not \(given.map { "--\($0.0.rawValue)" }.joined(separator: " and "))")
        }
        do {
            _ = try type.value(from: text)
        } catch {
            throw ValidationError("--\(type.rawValue): \(error.description)")
        }
    }

    /// The value, parsed as `validate` checked it.
    func value(_ options: PropertyListReadOptions) throws(CommandFailure) -> PropertyListValue {
        guard let (type, text) = given.first else { return .null }
        do {
            return try type.value(from: text, options: options)
        } catch {
            throw CommandFailure(file: "--\(type.rawValue)", message: error.description)
        }
    }
}
