import Foundation
import PropertyList

/// A FILE argument: a path, or - for standard input.
struct InputFile {
    let path: String

    var displayName: String { path == "-" ? "<stdin>" : path }

    /// The file's extension, which tells JSON from OpenStep text; nil for standard input.
    var fileExtension: String? { path == "-" ? nil : URL(fileURLWithPath: path).pathExtension }

    /// Reads the whole input, refusing anything over `limit` before reading past it.
    ///
    /// Regular files are mapped; standard input, pipes and devices are read in pieces. With
    /// `mapped`, only the pages a reader touches are read in (`get` looks at a few objects);
    /// otherwise the whole file is brought in by the mapping call itself (`MAP_POPULATE`), in
    /// large reads, rather than a page fault at a time as the reader walks it. Errors are the system's reasons in our words,
    /// never Foundation's.
    func read(limit: Int, mapped: Bool = false) throws(CommandFailure) -> Data {
        if path == "-" {
            return try Self.readStream(STDIN_FILENO, limit: limit, name: displayName)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw CommandFailure(file: path, message: code == ENOENT ? "no such file" : "cannot read: \(SystemError.reason(code))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw CommandFailure(file: path, message: "cannot read: \(SystemError.reason(code))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            close(fd)
            throw CommandFailure(file: path, message: "is a folder")
        case S_IFREG:
            let size = Int(info.st_size)
            guard size <= limit else {
                close(fd)
                throw CommandFailure(file: path, message: "file is \(size) bytes, over the limit of \(limit) (see --max-input-size)")
            }
            guard size > 0 else {
                close(fd)
                return Data()
            }
            // Mapped: a 2 GB input costs address space, not a copy.
            let flags = MAP_PRIVATE | (mapped ? 0 : Self.mapPopulate)
            guard let base = mmap(nil, size, PROT_READ, flags, fd, 0), base != MAP_FAILED else {
                // Some file systems cannot map; read instead.
                defer { close(fd) }
                return try Self.readStream(fd, limit: limit, name: path)
            }
            close(fd)
            return Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
        default:
            // A FIFO, a device, a process substitution: read what comes.
            defer { close(fd) }
            return try Self.readStream(fd, limit: limit, name: path)
        }
    }

    /// `MAP_POPULATE` of `<sys/mman.h>`, which the Glibc module leaves out.
    static let mapPopulate: Int32 = 0x8000

    /// Reads `fd` to its end, stopping as soon as more than `limit` bytes have come.
    static func readStream(_ fd: Int32, limit: Int, name: String) throws(CommandFailure) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return data }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw CommandFailure(file: name, message: code == EISDIR ? "is a folder" : "cannot read: \(SystemError.reason(code))")
            }
            guard data.count + n <= limit else {
                throw CommandFailure(file: name, message: "input is over the limit of \(limit) bytes (see --max-input-size)")
            }
            chunk.withUnsafeBytes { data.append(contentsOf: $0.prefix(n)) }
        }
    }

    /// Reads and parses the input as a property list of any format: `format` when given, else
    /// the one its content and its file's extension say (`PropertyListReader.read(_:fileExtension:)`).
    ///
    /// Warnings (a key repeated in a dictionary) go to standard error as they are found; the
    /// value is what Apple's readers make of the file.
    ///
    /// - Parameter preferringJSON: JSON first when the text may be JSON (`archive`'s payloads).
    func readPropertyList(_ options: ReadingOptions, as format: PropertyListFormat? = nil,
                          preferringJSON: Bool = false) throws(CommandFailure) -> (value: PropertyListValue, format: PropertyListFormat) {
        try readPropertyList(read(limit: options.maximumInputSize), options, as: format, preferringJSON: preferringJSON)
    }

    /// Checks the input as `readPropertyList` reads it (same errors, warnings and limits),
    /// without keeping the value: `lint`'s work.
    func validatePropertyList(_ options: ReadingOptions, as format: PropertyListFormat? = nil,
                              warnings: inout [PropertyListWarning]) throws(CommandFailure) -> PropertyListFormat {
        let data = try read(limit: options.maximumInputSize)
        do {
            let reader = PropertyListReader(options: options.readOptions)
            // Binary is checked without a tree; the other formats are read whole, and their
            // tree kept to the end of the process like any other input.
            guard (format ?? PropertyListFormat.detect(data)) == .binary else {
                let read = if let format { (value: try reader.read(data, as: format, warnings: &warnings), format: format) }
                    else { try reader.read(data, fileExtension: fileExtension, warnings: &warnings) }
                ProcessLifetime.keep(read.value)
                return read.format
            }
            if let format {
                try reader.validate(data, as: format, warnings: &warnings)
                return format
            }
            // A file that fails as binary is read as CF reads it next (OpenStep), as `read` does.
            return try reader.validate(data, fileExtension: fileExtension, warnings: &warnings)
        } catch {
            throw CommandFailure(file: displayName, message: Diagnosis.propertyListFailure(error, data: data))
        }
    }

    /// Reads and parses the input as a property list, collecting warnings instead of printing them.
    func readPropertyList(_ options: ReadingOptions, as format: PropertyListFormat? = nil,
                          warnings: inout [PropertyListWarning]) throws(CommandFailure) -> (value: PropertyListValue, format: PropertyListFormat) {
        try readPropertyList(read(limit: options.maximumInputSize), options, as: format, warnings: &warnings)
    }

    /// `readPropertyList(_:as:)` of bytes already read from this input.
    func readPropertyList(_ data: Data, _ options: ReadingOptions, as format: PropertyListFormat? = nil,
                          preferringJSON: Bool = false) throws(CommandFailure) -> (value: PropertyListValue, format: PropertyListFormat) {
        var warnings: [PropertyListWarning] = []
        let result = try readPropertyList(data, options, as: format, preferringJSON: preferringJSON, warnings: &warnings)
        for warning in warnings { StandardError.write("archivist: \(displayName): warning: \(warning.description)\n") }
        return result
    }

    /// `readPropertyList(_:as:warnings:)` of bytes already read from this input.
    func readPropertyList(_ data: Data, _ options: ReadingOptions, as format: PropertyListFormat? = nil, preferringJSON: Bool = false,
                          warnings: inout [PropertyListWarning]) throws(CommandFailure) -> (value: PropertyListValue, format: PropertyListFormat) {
        do {
            let reader = PropertyListReader(options: options.readOptions)
            let read = if let format { (value: try reader.read(data, as: format, warnings: &warnings), format: format) }
                else { try reader.read(data, fileExtension: fileExtension, preferringJSON: preferringJSON, warnings: &warnings) }
            ProcessLifetime.keep(read.value)
            return read
        } catch {
            throw CommandFailure(file: displayName, message: Diagnosis.propertyListFailure(error, data: data))
        }
    }
}
