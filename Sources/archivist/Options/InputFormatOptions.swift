import ArgumentParser
import PropertyList

/// `--from`: the format of a payload or property list, when its content and name should not decide.
struct InputFormatOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read the input as this format instead of detecting it: json, xml, binary or openstep. Detected: binary and XML by their first bytes, JSON for a .json file, an array or object with \"key\":, or a lone JSON value (true, 42, null, \"text\"); other text is OpenStep.", valueName: "FORMAT"))
    var from: PropertyListFormat?
}

extension PropertyListFormat: ExpressibleByArgument {}
