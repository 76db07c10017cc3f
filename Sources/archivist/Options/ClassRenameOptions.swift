import ArgumentParser
import KeyedArchive

/// `--rename-class OLD=NEW`, shared by `rewrite` and `migrate --to archive`.
struct ClassRenameOptions: ParsableArguments {
    @Option(name: .customLong("rename-class"), help: ArgumentHelp("Rename a class: OLD matches as written, as Module.Class and mangled (_TtC…); NEW is written as Swift writes it (Module.Class; a nested Module.Outer.Inner mangled) or exactly as given. Repeatable.", valueName: "OLD=NEW"))
    var renames: [String] = []

    func validate() throws {
        for rename in renames where !rename.contains("=") {
            throw ValidationError("--rename-class takes OLD=NEW, such as OldApp.Color=NewApp.Color (got \"\(rename)\")")
        }
    }

    /// The renames, or the reason one cannot be done (a NEW that is not a class name).
    func parsed(file: String) throws(CommandFailure) -> [KeyedArchiveClassRenamer.Rename] {
        var out: [KeyedArchiveClassRenamer.Rename] = []
        for text in renames {
            do throws(KeyedArchiveError) {
                out.append(try KeyedArchiveClassRenamer.Rename(text))
            } catch {
                throw CommandFailure(file: file, message: error.description)
            }
        }
        return out
    }
}
