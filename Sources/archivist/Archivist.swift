import ArgumentParser

@main
struct Archivist: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Read, check and convert property lists.")
}
