import ArgumentParser
import CoreDataModel
import Foundation

/// `--transformer` and `--transformers`: the classes the app's own transformers allow, for
/// `model --audit` and (in `ModelOptions`) `scan`, `migrate` and `codegen`.
struct TransformerOptions: ParsableArguments {
    @Option(name: .customLong("transformer"), help: ArgumentHelp("The classes an app-defined transformer allows (its allowedTopLevelClasses), so its columns are judged here. Repeatable.", valueName: "NAME=CLASS[,CLASS…]"))
    var transformers: [String] = []

    @Option(name: .customLong("transformers"), help: ArgumentHelp("A JSON file of transformer name → classes, as --transformer gives them.", valueName: "FILE"))
    var transformersFile: String?

    /// Whether either flag was given.
    var isUsed: Bool { !transformers.isEmpty || transformersFile != nil }

    func validate() throws {
        do throws(ModelError) {
            _ = try TransformerAllowLists(flags: transformers)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The transformer lists from `--transformers FILE` and then `--transformer`.
    func lists() throws(CommandFailure) -> TransformerAllowLists {
        var lists = TransformerAllowLists()
        if let transformersFile {
            guard let data = FileManager.default.contents(atPath: transformersFile) else {
                throw CommandFailure(file: transformersFile, message: "cannot read the file (--transformers)")
            }
            do throws(ModelError) {
                lists = try TransformerAllowLists(json: data)
            } catch {
                throw CommandFailure(file: transformersFile, message: "\(error.description) (--transformers)")
            }
        }
        do throws(ModelError) {
            lists.merge(try TransformerAllowLists(flags: transformers))
        } catch {
            throw CommandFailure(file: "--transformer", message: error.description)
        }
        return lists
    }
}
