import ArchivePayload
import ArgumentParser

/// How an archive becomes a payload, shared by `unarchive` and `migrate`.
struct PayloadMappingOptions: ParsableArguments {
    @Flag(help: "Add \"$class\" with the class name to objects of classes without a native mapping.")
    var keepClass = false

    @Flag(help: "Decode JSON, plists and archives held in NSData in place (a Codable struct boxed in an archive).")
    var expandNested = false

    @Option(help: ArgumentHelp("Keep only the part of the payload at this path, such as .unbox for the struct inside a box class.", valueName: "PATH"))
    var select: String?

    @Option(name: .customLong("max-payload-values"), help: "Most values a payload may hold; an object the archive shares counts at every place it appears.")
    var maximumValueCount: Int = PayloadOptions().maximumValueCount

    func validate() throws {
        if maximumValueCount < 1 { throw ValidationError("--max-payload-values must be at least 1") }
    }

    /// The library's options for a payload bound for `target`, following objects as deep as the
    /// reading limits allow.
    func payloadOptions(target: PayloadOptions.Target, maximumDepth: Int) -> PayloadOptions {
        PayloadOptions(keepsClassNames: keepClass, expandsNestedPayloads: expandNested, target: target,
                       maximumDepth: maximumDepth, maximumValueCount: maximumValueCount)
    }

    var selectedPath: PayloadPath? { select.map(PayloadPath.init) }
}
