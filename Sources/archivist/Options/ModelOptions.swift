import ArgumentParser
import CoreDataModel
import CoreDataStore
import Foundation
import PostgresTable

/// The model flags shared by `scan`, `migrate` and `model`: which model names and judges the
/// attributes, and the classes of the app's own transformers.
struct ModelOptions: ParsableArguments {
    @Option(name: .customLong("model"), help: ArgumentHelp("Name and judge attributes by this model instead of the store's own Z_MODELCACHE: a .mom, .momd, .xcdatamodeld, .xcdatamodel, or another store.", valueName: "PATH"))
    var modelPath: String?

    @Flag(help: "Ignore the store's model: names from the columns, every archive judged by the --allow list.")
    var noModel = false

    @Option(name: .customLong("transformer"), help: ArgumentHelp("The classes an app-defined transformer allows (its allowedTopLevelClasses), so its columns are judged here. Repeatable.", valueName: "NAME=CLASS[,CLASS…]"))
    var transformers: [String] = []

    @Option(name: .customLong("transformers"), help: ArgumentHelp("A JSON file of transformer name → classes, as --transformer gives them.", valueName: "FILE"))
    var transformersFile: String?

    /// Whether any of these flags was given.
    var isUsed: Bool { modelPath != nil || noModel || !transformers.isEmpty || transformersFile != nil }

    /// Refuses them for a source without a Core Data model (a PostgreSQL column), rather than
    /// ignore them.
    func validate(source: String) throws {
        if PostgresURL.isPostgresURL(source), isUsed {
            throw ValidationError("--model, --no-model, --transformer and --transformers name a Core Data model; a PostgreSQL column has none: judge it with --allow or --only")
        }
    }

    func validate() throws {
        if modelPath != nil, noModel { throw ValidationError("--model and --no-model contradict each other") }
        do throws(ModelError) {
            _ = try TransformerAllowLists(flags: transformers)
        } catch {
            throw ValidationError(error.description)
        }
    }

    var choice: ModelChoice {
        if noModel { return .none }
        return modelPath.map { .file($0) } ?? .storeCache
    }

    /// The transformer lists from `--transformers FILE` and then `--transformer`.
    func transformerLists() throws(CommandFailure) -> TransformerAllowLists {
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
