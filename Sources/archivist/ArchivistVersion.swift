import CoreDataModel
import CoreDataStore
internal import CVersionStamp
import PostgresTable
import PropertyList
import PropertyListXML
import Sweep

/// What `archivist --version` prints: the version make stamped into the build, then the C
/// libraries the executable links, each with the version its headers had at build time.
enum ArchivistVersion {
    /// The version of a build that make did not stamp (`swift build`): it cannot know its commit,
    /// so it says so rather than repeat a number it may not be.
    static let unstamped = "0.0.0-dev+unstamped (built without make, which stamps the version from git)"

    /// The tag this build was made from ("1.2.0"), `0.0.0-dev+COMMIT` between tags, or
    /// `unstamped`.
    static var number: String {
        let stamp = String(cString: archivist_version_stamp())
        return stamp.isEmpty ? unstamped : stamp
    }

    /// Every C library the executable links, in the order of the pipeline.
    static var linkedLibraries: [LinkedLibraryVersion] {
        [.libxml2, .sqlite, .zlib, .libarchive, .libpq]
    }

    /// The version the argument parser is given (it reads it for every command): the two lines
    /// only when `--version` is asked for, since reading libarchive's and libpq's versions loads
    /// them (docs/architecture.md, "Libraries loaded on first use"); otherwise never printed.
    static let forArgumentParser: String = {
        let asked = CommandLine.arguments.dropFirst().contains { $0 == "--version" || $0.hasPrefix("--version=") }
        return asked ? text : "archivist \(number)"
    }()

    /// The two lines `--version` prints.
    static var text: String {
        "archivist \(number)\nbuilt with " + linkedLibraries.map(\.summary).joined(separator: ", ")
    }
}
