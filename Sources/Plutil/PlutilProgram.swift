import Foundation
import PropertyList

/// plutil's command line on Linux: the syntax, flags, messages and exit codes of macOS's
/// `plutil`, run on Archivist's readers and writers, for any `PlutilEnvironment`.
/// `archivist plutil ARGS…` and the binary invoked as `plutil` both run it. Where
/// docs/plutil.md says so, it departs from macOS: it follows the manual where macOS has a bug,
/// and it never crashes.
public struct PlutilProgram {
    /// The arguments after the program's name.
    public var arguments: [String]
    /// How the help names the program.
    public var programName: String
    /// Limits for reading each file.
    public var readOptions: PropertyListReadOptions
    public var environment: any PlutilEnvironment

    public init(arguments: [String], programName: String = "plutil", readOptions: PropertyListReadOptions = .default,
                environment: any PlutilEnvironment) {
        self.arguments = arguments
        self.programName = programName
        self.readOptions = readOptions
        self.environment = environment
    }

    /// A failure that ends the whole command: bad arguments. Printed as is, exit status 1.
    struct UsageFailure: Error {
        var message: String
    }

    /// A failure on one file: printed as `FILE: message`, and the next file goes on.
    struct FileFailure: Error {
        var message: String
        /// An output that could not be written: ours, not plutil's, so it is reported as the
        /// environment reports every such failure (`archivist: cannot write OUTPUT: REASON`).
        var output: PlutilOutputError?

        init(message: String) {
            self.message = message
        }

        init(output: PlutilOutputError) {
            self.message = output.line
            self.output = output
        }

        /// Whether the failure was standard output's, which every later file would meet too.
        var endsTheRun: Bool { output?.isStandardOutput == true }
    }

    /// Runs the command and returns the exit status: 0 when everything succeeded, 1 otherwise.
    public func run() -> Int32 {
        do {
            return try execute() ? 0 : 1
        } catch {
            printError(error.message)
            return 1
        }
    }

    func execute() throws(UsageFailure) -> Bool {
        var rest = arguments
        guard let command = rest.first else { throw UsageFailure(message: "No files specified.") }
        rest.removeFirst()
        switch command {
        case "-help":
            do throws(PlutilOutputError) {
                try environment.write(Data(PlutilHelp.text(programName).utf8), to: nil)
            } catch {
                printError(error.line)
                return false
            }
            return true
        case "-lint":
            return try lint(rest)
        case "-p":
            return try printFiles(rest)
        case "-convert":
            guard let name = rest.first else { throw UsageFailure(message: "Missing format specifier for command.") }
            rest.removeFirst()
            let format = try PlutilFormat(argument: name)
            var header = false
            if rest.first == "-header" {
                guard format == .objc else { throw UsageFailure(message: "-header is only valid for objc literal conversions.") }
                rest.removeFirst()
                header = true
            }
            return try convert(rest, to: format, header: header)
        case "-insert", "-replace":
            return try insert(rest, replacing: command == "-replace")
        case "-remove":
            guard let keyPath = rest.first else { throw UsageFailure(message: "'Remove' requires a key path.") }
            rest.removeFirst()
            return try remove(rest, keyPath: keyPath)
        case "-extract", "-type":
            let isType = command == "-type"
            let missing = "'Extract' requires a key path and a plist format."
            guard let keyPath = rest.first else { throw UsageFailure(message: missing) }
            rest.removeFirst()
            var format: PlutilFormat? = .type
            if !isType {
                guard let name = rest.first else { throw UsageFailure(message: missing) }
                rest.removeFirst()
                format = try PlutilFormat(argument: name)
            }
            var expect: String?
            if rest.first == "-expect" {
                rest.removeFirst()
                guard let type = rest.first else { throw UsageFailure(message: "-expect requires a type argument.") }
                rest.removeFirst()
                guard PlutilFormat.expectTypes.contains(type) else { throw UsageFailure(message: "-expect type [\(type)] not valid.") }
                expect = type
            }
            return try extract(rest, keyPath: keyPath, format: format, expect: expect)
        case "-create":
            guard let name = rest.first else { throw UsageFailure(message: "'Create' requires a plist format.") }
            rest.removeFirst()
            return try create(rest, format: try PlutilFormat(argument: name) ?? .xml1)
        default:
            // No command: lint, with the first argument a file.
            return try lint(arguments)
        }
    }

    // MARK: Commands

    func lint(_ arguments: [String]) throws(UsageFailure) -> Bool {
        let options = try PlutilOptions(arguments)
        if options.output != nil { throw UsageFailure(message: "-o is not used with -lint.") }
        if options.fileExtension != nil { throw UsageFailure(message: "-e is not used with -lint.") }
        return forEachFile(options) { path throws(FileFailure) in
            // plutil lints property lists only: JSON is not one of them.
            let data = try readFile(path)
            guard PropertyListFormat.detect(data) != .json else {
                throw FileFailure(message: "(JSON text is not a property list; plutil -lint accepts XML, binary and OpenStep)")
            }
            do throws(PropertyListError) {
                _ = try PropertyListReader(options: readOptions).read(data)
            } catch {
                throw FileFailure(message: "(\(environment.describe(error, data: data)))")
            }
            if !options.silent { try writeStandardOutput(Data("\(Self.displayName(path)): OK\n".utf8)) }
        }
    }

    func printFiles(_ arguments: [String]) throws(UsageFailure) -> Bool {
        let options = try PlutilOptions(arguments)
        if options.output != nil { throw UsageFailure(message: "-o is not used with -p.") }
        if options.fileExtension != nil { throw UsageFailure(message: "-e is not used with -p.") }
        if options.silent { environment.writeError("-s doesn't make a lot of sense with -p.\n") }
        return forEachFile(options) { path throws(FileFailure) in
            let (value, _) = try readDocument(path)
            try writeStandardOutput(Data(PlutilPrintFormat.text(value).utf8))
        }
    }

    func convert(_ arguments: [String], to format: PlutilFormat?, header: Bool) throws(UsageFailure) -> Bool {
        let options = try PlutilOptions(arguments)
        return forEachFile(options) { path throws(FileFailure) in
            let (value, existing) = try readDocument(path)
            try write(value, from: path, as: format ?? existing, options: options, header: header)
        }
    }

    func insert(_ arguments: [String], replacing: Bool) throws(UsageFailure) -> Bool {
        var rest = arguments
        let missing = "'Insert' and 'Replace' require a key path, a type, and a value."
        guard rest.count >= 2 else { throw UsageFailure(message: missing) }
        let keyPath = rest.removeFirst()
        let typeFlag = rest.removeFirst()
        guard typeFlag.hasPrefix("-"), let type = PropertyListValueArgument(rawValue: String(typeFlag.dropFirst())) else {
            throw UsageFailure(message: "Unknown insert or replace type \(typeFlag)")
        }
        var text = ""
        if type.takesValue {
            guard !rest.isEmpty else { throw UsageFailure(message: "'Insert' and 'Replace' require a key path, a type, and a value2.") }
            text = rest.removeFirst()
        }
        let value: PropertyListValue
        do {
            value = try type.value(from: text, lenient: true, options: readOptions)
        } catch {
            switch type {
            case .data: throw UsageFailure(message: "Invalid base64 data in argument")
            case .xml: throw UsageFailure(message: "Unable to parse xml property list: \(error.description)")
            case .json: throw UsageFailure(message: "Unable to parse JSON: \(error.description)")
            default: throw UsageFailure(message: "Invalid \(type.rawValue) value: \(error.description)")
            }
        }
        var appending = false
        if rest.first == "-append" {
            rest.removeFirst()
            appending = !replacing
        }
        let options = try PlutilOptions(rest)
        let path = PropertyListKeyPath(keyPath)
        return forEachFile(options) { file throws(FileFailure) in
            var (document, format) = try readDocument(file)
            do throws(PropertyListEditError) {
                try document.edit(value, at: path, mode: Self.mode(for: document, at: path, replacing: replacing, appending: appending))
            } catch {
                throw FileFailure(message: Self.insertMessage(error))
            }
            try write(document, from: file, as: format, options: options, keyPath: keyPath)
        }
    }

    func remove(_ arguments: [String], keyPath: String) throws(UsageFailure) -> Bool {
        let options = try PlutilOptions(arguments)
        let path = PropertyListKeyPath(keyPath)
        return forEachFile(options) { file throws(FileFailure) in
            var (document, format) = try readDocument(file)
            do throws(PropertyListEditError) {
                // plutil reads an empty component as no key at all.
                guard !path.components.contains("") else {
                    throw PropertyListEditError(.notFound, keyPath: path, failedAt: 0, "")
                }
                try document.remove(at: path)
            } catch {
                throw FileFailure(message: "No value to remove at key path \(path)")
            }
            try write(document, from: file, as: format, options: options, keyPath: keyPath)
        }
    }

    func extract(_ arguments: [String], keyPath: String, format: PlutilFormat?, expect: String?) throws(UsageFailure) -> Bool {
        let options = try PlutilOptions(arguments)
        let path = PropertyListKeyPath(keyPath)
        return forEachFile(options) { file throws(FileFailure) in
            let data = try readFile(file, mapped: true)
            var found: PropertyListValue?
            var existing = PlutilFormat.xml1
            // A binary file is not read whole: only the objects on the path and in the value.
            if PropertyListFormat.detect(data) == .binary, !path.components.contains("") {
                do throws(PropertyListError) {
                    found = try PropertyListReader(options: readOptions).read(data, at: path).value
                    existing = .binary1
                } catch {
                    throw FileFailure(message: "Property List error: \(environment.describe(error, data: data)) / JSON error: not JSON")
                }
            } else {
                let (document, documentFormat) = try parse(data)
                existing = documentFormat
                found = path.components.contains("") ? nil : document.value(at: path)
            }
            guard let value = found else {
                throw FileFailure(message: "Could not extract value, error: No value at that key path or invalid key path: \(keyPath)")
            }
            let actual = value.plutilTypeName ?? "(any)"
            if let expect, actual != expect {
                throw FileFailure(message: "Value at [\(keyPath)] expected to be \(expect) but is \(actual)")
            }
            try write(value, from: file, as: format ?? existing, options: options, keyPath: keyPath)
        }
    }

    func create(_ arguments: [String], format: PlutilFormat) throws(UsageFailure) -> Bool {
        let options = try PlutilOptions(arguments)
        return forEachFile(options) { path throws(FileFailure) in
            let empty = PropertyListValue.dictionary(PropertyListDictionary())
            let data: Data
            switch format {
            case .swift: data = Data("/// Generated from -\nlet - = [\n    ]".utf8)
            case .objc: data = Data("/// Generated from -\n__attribute__((visibility(\"hidden\")))\nNSDictionary * const _ = @{\n};".utf8)
            case .raw: data = Data("\n".utf8)
            case .type: data = Data("dictionary".utf8)
            case .openStep: throw FileFailure(message: "Cannot create open step property lists")
            case .xml1, .binary1, .json: data = try encode(empty, as: format, from: path, options: options, keyPath: nil).main
            }
            do throws(PlutilOutputError) {
                try environment.write(data, to: path)
                if path == "-", !options.omitsNewline, format == .raw || format == .type {
                    try environment.write(Data("\n".utf8), to: nil)
                }
            } catch {
                throw FileFailure(output: error)
            }
        }
    }

    // MARK: Writing

    /// Writes `value` as plutil does: to standard output for `-o -` and for raw and type
    /// output, otherwise to the file (its name changed by `-e`, or to `.swift`/`.m` for
    /// literals) or to `-o`, replacing it atomically.
    func write(_ value: PropertyListValue, from path: String, as format: PlutilFormat, options: PlutilOptions,
               header: Bool = false, keyPath: String? = nil) throws(FileFailure) {
        let destination = Self.destination(for: path, format: format, options: options)
        let (data, headerData) = try encode(value, as: format, from: path, options: options, keyPath: keyPath, destination: destination, header: header)
        do throws(PlutilOutputError) {
            if options.output == "-" || (options.output == nil && (format == .raw || format == .type)) {
                try environment.write(data, to: nil)
                if !options.omitsNewline, format == .raw || format == .type { try environment.write(Data("\n".utf8), to: nil) }
            } else {
                try environment.write(data, to: destination)
                if let headerData { try environment.write(headerData, to: Self.replacingExtension(of: destination, with: "h")) }
            }
        } catch {
            throw FileFailure(output: error)
        }
    }

    func encode(_ value: PropertyListValue, as format: PlutilFormat, from path: String, options: PlutilOptions, keyPath: String?,
                destination: String = "-", header: Bool = false) throws(FileFailure) -> (main: Data, header: Data?) {
        if value.hasNonStringKey {
            throw FileFailure(message: "Dictionaries are required to have string keys in property lists")
        }
        func attempt<T>(_ body: () throws(PropertyListError) -> T) throws(FileFailure) -> T {
            do {
                return try body()
            } catch {
                throw FileFailure(message: "(\(error.description))")
            }
        }
        switch format {
        case .xml1: return (try attempt { () throws(PropertyListError) in try XMLPropertyListWriter().write(value) }, nil)
        case .binary1: return (BinaryPropertyListWriter().write(value), nil)
        case .json:
            // A set is a collection JSON has no form for.
            guard value.isCollection, value.isJSONCompatible else {
                throw FileFailure(message: "Invalid object in plist for JSON format")
            }
            var json = JSONWriteOptions()
            var written = value
            if options.readable {
                json.outputFormatting.insert(.prettyPrinted)
                written = value.sortedByPlutilKeyOrder
            }
            return (try attempt { () throws(PropertyListError) in try JSONPropertyListWriter(options: json).write(written) }, nil)
        case .swift:
            return (try attempt { () throws(PropertyListError) in try PropertyListLiteralWriter(language: .swift, sourceName: path).write(value) }, nil)
        case .objc:
            let imported = destination == "-" || options.output == "-" ? nil : PropertyListLiteralWriter.headerName(for: destination)
            let writer = PropertyListLiteralWriter(language: .objc, sourceName: path, importedHeader: imported)
            return (try attempt { () throws(PropertyListError) in try writer.write(value) },
                    header ? try attempt { () throws(PropertyListError) in try writer.header(for: value) } : nil)
        case .raw:
            guard let text = value.rawText else {
                throw FileFailure(message: "Value at \(keyPath ?? "unknown key path") is a \(value.plutilTypeName ?? "(any)") type and cannot be extracted in raw format")
            }
            return (Data(text.utf8), nil)
        case .type:
            return (Data((value.plutilTypeName ?? "(any)").utf8), nil)
        case .openStep:
            throw FileFailure(message: "Conversion to OpenStep format is not supported")
        }
    }

    /// The file a result goes to: `-o`, else the input with `-e`'s extension, with `.swift` or
    /// `.m` for literals (added when the name has no extension, so the input is never overwritten).
    static func destination(for path: String, format: PlutilFormat, options: PlutilOptions) -> String {
        if let output = options.output { return output }
        var result = path
        if let ext = options.fileExtension { result = replacingExtension(of: result, with: ext) }
        switch format {
        case .swift: result = replacingExtension(of: result, with: "swift", addingWhenAbsent: true)
        case .objc: result = replacingExtension(of: result, with: "m", addingWhenAbsent: true)
        default: break
        }
        return result
    }

    static func replacingExtension(of path: String, with ext: String, addingWhenAbsent: Bool = false) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, name != "..", name != "." {
            return String(path[..<dot]) + "." + ext
        }
        return addingWhenAbsent ? path + "." + ext : path
    }

    // MARK: Reading

    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    func readFile(_ path: String, mapped: Bool = false) throws(FileFailure) -> Data {
        if path == "-" {
            do throws(PlutilInputError) {
                return try environment.readStandardInput(limit: readOptions.maximumInputSize)
            } catch {
                throw FileFailure(message: "(\(error.reason))")
            }
        }
        guard !path.isEmpty else { throw FileFailure(message: "Empty path specified") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileFailure(message: "(The file “\(URL(fileURLWithPath: path).lastPathComponent)” couldn’t be opened because there is no such file.)")
        }
        guard !isDirectory.boolValue else {
            throw FileFailure(message: "(The file “\(URL(fileURLWithPath: path).lastPathComponent)” couldn’t be opened because it is a folder.)")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > readOptions.maximumInputSize {
            throw FileFailure(message: "(the file is \(size) bytes, over the limit of \(readOptions.maximumInputSize))")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: mapped ? .alwaysMapped : .mappedIfSafe)
        } catch {
            throw FileFailure(message: "(The file “\(URL(fileURLWithPath: path).lastPathComponent)” couldn’t be opened: \(error.localizedDescription))")
        }
    }

    func readDocument(_ path: String) throws(FileFailure) -> (PropertyListValue, PlutilFormat) {
        try parse(try readFile(path))
    }

    /// A document in any plist format, or else JSON, as plutil reads it.
    func parse(_ data: Data) throws(FileFailure) -> (PropertyListValue, PlutilFormat) {
        let reader = PropertyListReader(options: readOptions)
        let detected = PropertyListFormat.detect(data)
        // What the file is, when the sniffer knows (a JPEG, an SQLite store…), in the plist half.
        var plistMessage = data.isEmpty ? "empty input"
            : environment.foreignContent(data).map { "not a property list: \($0)" } ?? "not a property list"
        if let detected, detected != .json {
            do {
                let value = try reader.read(data, as: detected)
                switch detected {
                case .binary: return (value, .binary1)
                case .xml: return (value, .xml1)
                case .openStep, .json: return (value, .openStep)
                }
            } catch {
                plistMessage = environment.describe(error, data: data)
            }
        }
        do {
            return (try JSONPropertyListReader(options: readOptions).read(data), .json)
        } catch {
            throw FileFailure(message: "Property List error: \(plistMessage) / JSON error: \(error.description)")
        }
    }

    // MARK: Helpers

    /// Runs `body` on each file, printing each failure as `FILE: message` and going on.
    func forEachFile(_ options: PlutilOptions, _ body: (String) throws(FileFailure) -> Void) -> Bool {
        var allSucceeded = true
        for path in options.paths {
            do {
                try body(path)
            } catch {
                allSucceeded = false
                if let output = error.output {
                    printError(output.line)
                    if error.endsTheRun { break }
                } else {
                    printError("\(Self.displayName(path)): \(error.message)")
                }
            }
        }
        return allSucceeded
    }

    func printError(_ line: String) {
        environment.writeError(line + "\n")
    }

    /// Standard output through the one output path: a failed write fails the file, as every
    /// verb's does, rather than passing unnoticed.
    func writeStandardOutput(_ data: Data) throws(FileFailure) {
        do throws(PlutilOutputError) {
            try environment.write(data, to: nil)
        } catch {
            throw FileFailure(output: error)
        }
    }

    /// How plutil's `-insert` and `-replace` put a value: `-replace` sets a dictionary key whether
    /// or not it exists and overwrites an array element (the manual's "overwrite an existing
    /// value"); `-insert -append` on a dictionary key that does not exist inserts the value itself.
    static func mode(for document: PropertyListValue, at path: PropertyListKeyPath, replacing: Bool, appending: Bool) -> PropertyListEditMode {
        if replacing { return .set }
        guard appending else { return .insert }
        let parent = PropertyListKeyPath(components: Array(path.components.dropLast()))
        if case .dictionary? = document.value(at: parent), document.value(at: path) == nil { return .insert }
        return .append
    }

    /// plutil's words for a failed insert or replace.
    static func insertMessage(_ error: PropertyListEditError) -> String {
        let path = error.keyPath.description
        let last = error.failedAt == error.keyPath.components.count - 1
        switch error.code {
        case .notFound: return "Key path not found \(path)"
        case .alreadyExists: return "Value already exists at key path \(path)"
        case .notAnArray:
            return error.keyPath.components.last.flatMap(Int.init) != nil
                ? "Attempt to append value to non-array at key path \(path)" : "Appending to a non-array at key path \(path)"
        case .invalidIndex: return "Unable to index into array with key path \(path)"
        case .indexOutOfRange:
            let index = error.keyPath.components[min(error.failedAt, error.keyPath.components.count - 1)]
            return "Index \(index) out of bounds in array at key path \(path)"
        default: // .notAContainer, .rootNotEditable
            return last ? "Unable to insert value at key path \(path)" : "Key path not found \(path)"
        }
    }
}

extension PlutilProgram.UsageFailure {
    init(_ message: String) { self.message = message }
}
