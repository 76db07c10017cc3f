import ArgumentParser
import KeyedArchive
import PropertyList

/// Limits for reading untrusted input, shared by every verb that reads.
struct ReadingOptions: ParsableArguments {
    @Option(name: .customLong("max-depth"), help: ArgumentHelp("Deepest nesting accepted (default: \(Archivist.defaultMaximumDepth); sweep: \(PropertyListReadOptions.default.maximumDepth), CF's own cap).", valueName: "max-depth"))
    var maximumDepthGiven: Int?

    /// The depth limit: as given, or the CLI's default.
    var maximumDepth: Int { maximumDepthGiven ?? Archivist.defaultMaximumDepth }

    /// These options with `depth` as the depth limit unless one was given (sweep reads each item
    /// with CF's cap, so that every worker's stack stays small).
    func defaultingDepth(to depth: Int) -> ReadingOptions {
        var options = self
        if options.maximumDepthGiven == nil { options.maximumDepthGiven = depth }
        return options
    }

    @Option(name: .customLong("max-objects"), help: "Most values a document may hold, shared references counted each time.")
    var maximumObjectCount: Int = PropertyListReadOptions.default.maximumObjectCount

    @Option(name: .customLong("max-input-size"), help: "Largest input accepted, in bytes.")
    var maximumInputSize: Int = PropertyListReadOptions.default.maximumInputSize

    @Option(name: .customLong("max-decoded-size"), help: "Most bytes of string and data content the decoded tree may hold.")
    var maximumDecodedSize: Int = PropertyListReadOptions.default.maximumDecodedSize

    @Flag(name: .customLong("no-expansion-limit"), help: "Let a small binary file's shared references expand up to --max-objects and --max-decoded-size (by default, beyond a million values and 64 MiB, 64 values and 1 KiB per input byte).")
    var noExpansionLimit = false

    @Flag(name: .customLong("preserve-invalid-utf16"), help: "Keep UTF-16 strings with lone surrogates instead of refusing them.")
    var preservesInvalidUTF16 = false

    func validate() throws {
        for (name, value) in [("--max-depth", maximumDepth), ("--max-objects", maximumObjectCount),
                              ("--max-input-size", maximumInputSize), ("--max-decoded-size", maximumDecodedSize)]
        where value < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
    }

    var readOptions: PropertyListReadOptions {
        var o = PropertyListReadOptions()
        o.maximumDepth = maximumDepth
        o.maximumObjectCount = maximumObjectCount
        o.maximumInputSize = maximumInputSize
        o.maximumDecodedSize = maximumDecodedSize
        o.preservesInvalidUTF16 = preservesInvalidUTF16
        if noExpansionLimit { o.expansionLimit = .unlimited }
        return o
    }
}

extension ReadingOptions {
    /// The reading limits as keyed-archive options.
    var archiveReadOptions: KeyedArchiveReadOptions {
        var options = KeyedArchiveReadOptions()
        options.propertyList = readOptions
        options.maximumDepth = maximumDepth
        return options
    }

    /// The stack for threads that read values beside the main one (`scan` and `migrate`):
    /// the CLI's deep stack when the depth limit is above what an ordinary stack holds.
    var workerStackSize: Int? {
        maximumDepth > PropertyListReadOptions.default.maximumDepth ? Archivist.workerStackSize : nil
    }
}
