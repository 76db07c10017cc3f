import ArgumentParser
import PropertyList

/// JSON output choices, named after JSONEncoder's strategies.
struct JSONOutputOptions: ParsableArguments {
    var writer: JSONPropertyListWriter { JSONPropertyListWriter() }
}
