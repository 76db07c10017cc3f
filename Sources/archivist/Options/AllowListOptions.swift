import ArgumentParser
import Foundation
import ArchivePayload

/// The allow-list flags shared by `check` and `unarchive`.
struct AllowListOptions: ParsableArguments {
    @Option(name: .customLong("allow"), help: ArgumentHelp("Add a class to the transformer's default list, as super.allowedTopLevelClasses + [X.self] does. Repeatable, or comma-separated. Written, Module.Class and mangled names all match.", valueName: "CLASS[,CLASS…]"))
    var allowed: [String] = []

    @Option(name: .customLong("only"), help: ArgumentHelp("Replace the default list with these classes: --only A,B or --only A --only B, before or after FILE.", valueName: "CLASS[,CLASS…]"))
    var only: [String] = []

    @Flag(help: "Judge subclasses by the archive's own $classes chain, which whoever wrote the blob controls, instead of the real class hierarchy.")
    var trustArchiveHierarchy = false

    /// Values may also be comma-separated: `--only MyApp.Box,NSData`.
    static func split(_ names: [String]) -> [String] {
        names.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }

    var allowList: AllowList {
        let only = Self.split(self.only), allowed = Self.split(self.allowed)
        var list = only.isEmpty ? AllowList.transformerDefault(adding: allowed) : AllowList(classes: only + allowed)
        list.trustsArchiveHierarchy = trustArchiveHierarchy
        return list
    }
}
