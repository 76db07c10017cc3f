import ArgumentParser
import KeyedArchive

/// `--class PATH=CLASS`: the class of the value at a payload path, shared by `archive` and
/// `migrate --to archive`.
struct ClassAssignmentOptions: ParsableArguments {
    @Option(name: .customLong("class"), help: ArgumentHelp("The class of the value at PATH: . is the root, .a.b a key path, .items[] every element, .items[2] one. Repeatable.", valueName: "PATH=CLASS"))
    var assignments: [String] = []

    func validate() throws {
        for c in assignments {
            let parts = c.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ValidationError("--class takes PATH=CLASS, such as .=UIColor or .items[].tint=UIColor (got \"\(c)\")")
            }
        }
    }

    /// Class name by path.
    var classes: [String: String] {
        var mapping: [String: String] = [:]
        for c in assignments {
            let parts = c.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { mapping[parts[0]] = parts[1] }
        }
        return mapping
    }

    /// The first assignment whose class is not a class name, with the reason.
    func problem() -> String? {
        for (path, name) in classes.sorted(by: { $0.key < $1.key }) {
            if let problem = ArchivedClassName.problem(name) { return "--class \(path)=\(name): \(problem)" }
        }
        return nil
    }
}
