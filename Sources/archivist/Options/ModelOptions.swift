import ArgumentParser
import CoreDataModel
import CoreDataStore
import PostgresTable

/// The model flags shared by `scan`, `migrate` and `codegen`: which model names and judges the
/// attributes, and the classes of the app's own transformers.
struct ModelOptions: ParsableArguments {
    @Option(name: .customLong("model"), help: ArgumentHelp("Name and judge attributes by this model instead of the store's own Z_MODELCACHE: a .mom, .momd, .xcdatamodeld, .xcdatamodel, or another store.", valueName: "PATH"))
    var modelPath: String?

    @Flag(help: "Ignore the store's model: names from the columns, every archive judged by the --allow list.")
    var noModel = false

    @OptionGroup
    var transformers: TransformerOptions

    /// Whether any of these flags was given.
    var isUsed: Bool { modelPath != nil || noModel || transformers.isUsed }

    /// Refuses them for a source without a Core Data model (a PostgreSQL column), rather than
    /// ignore them.
    func validate(source: String) throws {
        if PostgresURL.isPostgresURL(source), isUsed {
            throw ValidationError("--model, --no-model, --transformer and --transformers name a Core Data model; a PostgreSQL column has none: judge it with --allow or --only")
        }
    }

    func validate() throws {
        if modelPath != nil, noModel { throw ValidationError("--model and --no-model contradict each other") }
    }

    var choice: ModelChoice {
        if noModel { return .none }
        return modelPath.map { .file($0) } ?? .storeCache
    }

    /// The transformer lists from `--transformers FILE` and then `--transformer`.
    func transformerLists() throws(CommandFailure) -> TransformerAllowLists {
        try transformers.lists()
    }
}
