import Foundation
import PropertyList

/// Times the `archivist` CLI as users run it, a whole process from start to exit, next to
/// Foundation (as its own process, on the same bytes), libplist's `plistutil` and libxml2's
/// `xmllint --stream`, in the same run (`archivist-bench --only process`).
struct ProcessBenchmark: BenchmarkGroup {
    var settings: BenchmarkSettings

    /// A row of a table: a command, its best run, and what it is compared with.
    struct Row {
        var command: String
        var run: ProcessRun?
        var comparisons: [String] = []
        var goal: String = ""
    }

    func run() {
        guard let cli = archivistPath() else {
            log("process benchmark: no archivist executable beside archivist-bench; build it with swift build -c release --product archivist, or give --cli PATH")
            return
        }
        let bench = Bundle.main.executablePath ?? CommandLine.arguments[0]
        // The inputs stay in --write-inputs DIR when given; otherwise in a folder removed at the end.
        let directory = makeInputsDirectory("process")
        defer { removeInputsDirectory(directory) }
        let n = settings.repetitions

        // The archive.
        log("process: generating \(settings.archiveRecords) records in plistlib's layout…")
        let (archiveData, objectCount) = RecordArchiveInput.make(records: settings.archiveRecords)
        let archive = directory + "/records.archive.bplist"
        FileManager.default.createFile(atPath: archive, contents: archiveData)
        log("process: \(archiveData.count) bytes, \(objectCount) archived objects")
        // The same archive with every record's NS.keys stored once (`SharedLayoutInput`).
        let sharedData = SharedLayoutInput.shared(archiveData)
        let sharedArchive = directory + "/records.shared.bplist"
        if let sharedData { FileManager.default.createFile(atPath: sharedArchive, contents: sharedData) }

        // The property lists.
        log("process: generating \(settings.dictionaryCount) dictionaries…")
        let value = BenchmarkInput.make(dictionaries: settings.dictionaryCount)
        let binaryData = BinaryPropertyListWriter().write(value)
        let binary = directory + "/big.bplist"
        FileManager.default.createFile(atPath: binary, contents: binaryData)
        let xml = directory + "/big.xml"
        guard let xmlData = try? XMLPropertyListWriter().write(value) else { return }
        FileManager.default.createFile(atPath: xml, contents: xmlData)
        // The second shape: real-world values (see `BenchmarkInput.makeRealWorld`).
        log("process: generating \(settings.realWorldRecords) records of real-world values…")
        let realWorldValue = BenchmarkInput.makeRealWorld(records: settings.realWorldRecords)
        let realWorldData = BinaryPropertyListWriter().write(realWorldValue)
        let realWorld = directory + "/values.bplist"
        FileManager.default.createFile(atPath: realWorld, contents: realWorldData)
        guard let realWorldXMLData = try? XMLPropertyListWriter().write(realWorldValue) else { return }
        // The same records as CPython's plistlib lays them out (`PlistlibLayoutWriter`): keys
        // and equal values stored once, in its own order, so that no object of the file is where
        // our writer would put it.
        let plistlibData = PlistlibLayoutWriter.write(realWorldValue)
        let plistlibValues = directory + "/values.plistlib.bplist"
        if let plistlibData { FileManager.default.createFile(atPath: plistlibValues, contents: plistlibData) }
        let out = directory + "/out"
        // The writers again with their output in memory (tmpfs), where `archivist`'s `fsync`
        // of the finished file returns at once: the figures then show the work, not the disk.
        let memoryOut = Self.memoryDirectory.map { $0 + "/archivist-bench-\(getpid()).out" }
        defer { if let memoryOut { unlink(memoryOut) } }

        // Every command, timed in rounds (see `ProcessRounds`).
        let rounds = ProcessRounds()
        let foundation = settings.skipFoundation ? nil : rounds.add([bench, "--foundation-unarchive", archive])
        let archiveLint = rounds.add([cli, "lint", "-s", archive])
        let check = rounds.add([cli, "check", archive])
        let unarchive = rounds.add([cli, "unarchive", archive, "--to", "json", "-o", directory + "/out.json"], outputPath: directory + "/out.json")
        let inspect = rounds.add([cli, "inspect", archive, "--format", "json"], stdoutPath: directory + "/inspect.json")
        let sharedCheck = sharedData.map { _ in rounds.add([cli, "check", sharedArchive]) }
        let sharedUnarchive = sharedData.map { _ in
            rounds.add([cli, "unarchive", sharedArchive, "--to", "json", "-o", directory + "/out.json"], outputPath: directory + "/out.json")
        }
        let sharedInspect = sharedData.map { _ in rounds.add([cli, "inspect", sharedArchive, "--format", "json"], stdoutPath: directory + "/inspect.json") }
        let foundationReadCommand = settings.skipFoundation ? nil : rounds.add([bench, "--foundation-plist", binary, "none", out])
        let foundationXMLCommand = settings.skipFoundation ? nil : rounds.add([bench, "--foundation-plist", binary, "xml", out], outputPath: out)
        let foundationBinaryCommand = settings.skipFoundation ? nil : rounds.add([bench, "--foundation-plist", binary, "binary", out], outputPath: out)
        let lintCommand = rounds.add([cli, "lint", "-s", binary])
        let toJSONCommand = rounds.add([cli, "convert", binary, "--to", "json", "-o", out], outputPath: out)
        let toBinaryCommand = rounds.add([cli, "convert", binary, "--to", "binary", "-o", out], outputPath: out)
        let toXMLCommand = rounds.add([cli, "convert", binary, "--to", "xml", "-o", out], outputPath: out)
        let xmlToBinaryCommand = rounds.add([cli, "convert", xml, "--to", "binary", "-o", out], outputPath: out)
        let plistutilCommand = which("plistutil").map { rounds.add([$0, "-i", binary, "-o", out, "-f", "xml"], outputPath: out) }
        let toBinaryInMemoryCommand = memoryOut.map { rounds.add([cli, "convert", binary, "--to", "binary", "-o", $0], outputPath: $0) }
        let toXMLInMemoryCommand = memoryOut.map { rounds.add([cli, "convert", binary, "--to", "xml", "-o", $0], outputPath: $0) }
        let plistutilInMemoryCommand = memoryOut.flatMap { o in which("plistutil").map { rounds.add([$0, "-i", binary, "-o", o, "-f", "xml"], outputPath: o) } }
        let xmllintCommand = which("xmllint").map { rounds.add([$0, "--noout", "--stream", xml]) }
        // The real-world values, in the same rounds.
        let valuesLintCommand = rounds.add([cli, "lint", "-s", realWorld])
        let valuesToXMLCommand = rounds.add([cli, "convert", realWorld, "--to", "xml", "-o", out], outputPath: out)
        let valuesToBinaryCommand = rounds.add([cli, "convert", realWorld, "--to", "binary", "-o", out], outputPath: out)
        let valuesPlistutilCommand = which("plistutil").map { rounds.add([$0, "-i", realWorld, "-o", out, "-f", "xml"], outputPath: out) }
        let valuesToXMLInMemoryCommand = memoryOut.map { rounds.add([cli, "convert", realWorld, "--to", "xml", "-o", $0], outputPath: $0) }
        let valuesToBinaryInMemoryCommand = memoryOut.map { rounds.add([cli, "convert", realWorld, "--to", "binary", "-o", $0], outputPath: $0) }
        let valuesPlistutilInMemoryCommand = memoryOut.flatMap { o in which("plistutil").map { rounds.add([$0, "-i", realWorld, "-o", o, "-f", "xml"], outputPath: o) } }
        let plistlibLintCommand = plistlibData.map { _ in rounds.add([cli, "lint", "-s", plistlibValues]) }
        let plistlibToXMLCommand = plistlibData.map { _ in rounds.add([cli, "convert", plistlibValues, "--to", "xml", "-o", out], outputPath: out) }
        let plistlibToBinaryCommand = plistlibData.map { _ in rounds.add([cli, "convert", plistlibValues, "--to", "binary", "-o", out], outputPath: out) }
        rounds.run(rounds: n, log: log)

        let foundationRun = foundation?.best
        var archiveRows: [Row] = []
        func archiveRow(_ label: String, _ command: ProcessRounds.Command, goal: String = "") {
            var row = Row(command: label, run: command.best, goal: goal)
            if let run = command.best, let foundationRun { row.comparisons.append(ratio(foundationRun.seconds, run.seconds) + " Foundation") }
            archiveRows.append(row)
        }
        archiveRow("`archivist lint` (parse only)", archiveLint)
        archiveRow("`archivist check`", check, goal: "≥ 25× Foundation, peak ≤ 3× input")
        archiveRow("`archivist unarchive --to json -o out.json`", unarchive, goal: "≥ 20× Foundation")
        archiveRow("`archivist inspect --format json`", inspect, goal: "≥ 15× Foundation, output ≤ 3× input")
        archiveRows.append(Row(command: "Foundation `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)`", run: foundationRun))
        // The shared-collection layout, against the same verb on the Apple layout.
        for (label, shared, apple) in [("check", sharedCheck, check), ("unarchive --to json -o out.json", sharedUnarchive, unarchive),
                                       ("inspect --format json", sharedInspect, inspect)] {
            guard let shared, let sharedData else { continue }
            var row = Row(command: "`archivist \(label)`, NS.keys shared (\(mb(sharedData.count)))", run: shared.best, goal: "≤ 1.25× Apple layout, peak ≤ 3× input")
            if let ours = shared.best, let theirs = apple.best { row.comparisons.append(String(format: "%.2f× Apple layout", ours.seconds / theirs.seconds)) }
            archiveRows.append(row)
        }

        let foundationRead = foundationReadCommand?.best, foundationXML = foundationXMLCommand?.best
        let foundationBinary = foundationBinaryCommand?.best
        let lint = lintCommand.best, toJSON = toJSONCommand.best, toBinary = toBinaryCommand.best, toXML = toXMLCommand.best
        let xmlToBinary = xmlToBinaryCommand.best, plistutil = plistutilCommand?.best, xmllint = xmllintCommand?.best
        let toBinaryInMemory = toBinaryInMemoryCommand?.best, toXMLInMemory = toXMLInMemoryCommand?.best
        let plistutilInMemory = plistutilInMemoryCommand?.best

        /// `a` against `b`: the ratio of their best runs, and the median of their ratios round by round.
        func times(_ a: ProcessRounds.Command?, _ b: ProcessRounds.Command?, _ name: String) -> [String] {
            guard let a, let b, let bestA = a.best, let bestB = b.best else { return [] }
            let median = a.medianRatio(to: b).map { String(format: " (median of rounds %.2f×)", $0) } ?? ""
            return [String(format: "%.2f× %@", bestA.seconds / bestB.seconds, name) + median]
        }
        func faster(_ peer: ProcessRun?, _ ours: ProcessRun?, _ name: String) -> [String] {
            guard let peer, let ours else { return [] }
            return [ratio(peer.seconds, ours.seconds) + " " + name]
        }
        let plistRows: [Row] = [
            Row(command: "`archivist lint big.bplist` (read only)", run: lint,
                comparisons: faster(foundationRead, lint, "PropertyListSerialization read"), goal: "≥ 25× PropertyListSerialization"),
            Row(command: "`archivist convert big.bplist --to json`", run: toJSON, comparisons: times(toJSONCommand, lintCommand, "lint")),
            Row(command: "`archivist convert big.bplist --to binary`", run: toBinary,
                comparisons: times(toBinaryCommand, lintCommand, "lint") + faster(foundationBinary, toBinary, "PropertyListSerialization"),
                goal: "≤ 2× lint"),
            Row(command: "`archivist convert big.bplist --to xml`", run: toXML,
                comparisons: times(toXMLCommand, lintCommand, "lint") + faster(plistutil, toXML, "plistutil") + faster(foundationXML, toXML, "PropertyListSerialization"),
                goal: "≤ 2× lint, ≥ 3× plistutil"),
            Row(command: "`plistutil -i big.bplist -f xml`", run: plistutil),
            Row(command: "`archivist convert big.bplist --to binary`, output in memory", run: toBinaryInMemory,
                comparisons: times(toBinaryInMemoryCommand, lintCommand, "lint"), goal: "≤ 2× lint"),
            Row(command: "`archivist convert big.bplist --to xml`, output in memory", run: toXMLInMemory,
                comparisons: times(toXMLInMemoryCommand, lintCommand, "lint") + faster(plistutilInMemory, toXMLInMemory, "plistutil"),
                goal: "≤ 2× lint, ≥ 3× plistutil"),
            Row(command: "`plistutil -i big.bplist -f xml`, output in memory", run: plistutilInMemory),
            Row(command: "`archivist convert big.xml --to binary` (\(mb(xmlData.count)) in)", run: xmlToBinary,
                comparisons: times(xmlToBinaryCommand, xmllintCommand, "xmllint --stream"), goal: "≤ 2× xmllint --stream"),
            Row(command: "`xmllint --noout --stream big.xml` (libxml2 parsing alone)", run: xmllint),
            Row(command: "PropertyListSerialization read (Foundation)", run: foundationRead),
            Row(command: "PropertyListSerialization read + write XML", run: foundationXML),
            Row(command: "PropertyListSerialization read + write binary", run: foundationBinary),
        ]

        let valuesLint = valuesLintCommand.best, valuesToXML = valuesToXMLCommand.best, valuesToBinary = valuesToBinaryCommand.best
        let valuesPlistutil = valuesPlistutilCommand?.best, valuesToXMLInMemory = valuesToXMLInMemoryCommand?.best
        let valuesToBinaryInMemory = valuesToBinaryInMemoryCommand?.best, valuesPlistutilInMemory = valuesPlistutilInMemoryCommand?.best
        let valuesRows: [Row] = [
            Row(command: "`archivist lint values.bplist` (read only)", run: valuesLint),
            Row(command: "`archivist convert values.bplist --to xml`", run: valuesToXML,
                comparisons: times(valuesToXMLCommand, valuesLintCommand, "lint") + faster(valuesPlistutil, valuesToXML, "plistutil"),
                goal: "≤ 2× lint, ≥ 3× plistutil"),
            Row(command: "`archivist convert values.bplist --to binary`", run: valuesToBinary,
                comparisons: times(valuesToBinaryCommand, valuesLintCommand, "lint"), goal: "≤ 2× lint"),
            Row(command: "`plistutil -i values.bplist -f xml`", run: valuesPlistutil),
            Row(command: "`archivist convert values.bplist --to xml`, output in memory", run: valuesToXMLInMemory,
                comparisons: times(valuesToXMLInMemoryCommand, valuesLintCommand, "lint") + faster(valuesPlistutilInMemory, valuesToXMLInMemory, "plistutil")),
            Row(command: "`archivist convert values.bplist --to binary`, output in memory", run: valuesToBinaryInMemory,
                comparisons: times(valuesToBinaryInMemoryCommand, valuesLintCommand, "lint")),
            Row(command: "`plistutil -i values.bplist -f xml`, output in memory", run: valuesPlistutilInMemory),
        ]
        let plistlibRows: [Row] = [
            Row(command: "`archivist lint values.plistlib.bplist` (read only)", run: plistlibLintCommand?.best),
            Row(command: "`archivist convert values.plistlib.bplist --to xml`", run: plistlibToXMLCommand?.best,
                comparisons: times(plistlibToXMLCommand, plistlibLintCommand, "lint")),
            Row(command: "`archivist convert values.plistlib.bplist --to binary`", run: plistlibToBinaryCommand?.best,
                comparisons: times(plistlibToBinaryCommand, plistlibLintCommand, "lint")),
        ]

        // The outputs, once more outside the timing: the CLI's conversions must be the bytes
        // the library's writers give for the tree (and, for the real-world values' XML,
        // PropertyListSerialization's bytes).
        var checks: [String] = []
        func compareOutput(_ label: String, _ arguments: [String], expected: Data) {
            _ = ProcessRun.run(arguments, outputPath: out)
            let written = FileManager.default.contents(atPath: out)
            checks.append("\(label): " + (written == expected ? "identical" : "DIFFERENT (\(written?.count ?? 0) bytes against \(expected.count))"))
        }
        compareOutput("big.bplist --to xml, against XMLPropertyListWriter", [cli, "convert", binary, "--to", "xml", "-o", out], expected: xmlData)
        compareOutput("big.bplist --to binary, against BinaryPropertyListWriter", [cli, "convert", binary, "--to", "binary", "-o", out], expected: binaryData)
        compareOutput("values.bplist --to xml, against XMLPropertyListWriter", [cli, "convert", realWorld, "--to", "xml", "-o", out], expected: realWorldXMLData)
        compareOutput("values.bplist --to binary, against BinaryPropertyListWriter", [cli, "convert", realWorld, "--to", "binary", "-o", out], expected: realWorldData)
        if !settings.skipFoundation {
            log("process: PropertyListSerialization's XML of values.bplist, to compare…")
            compareOutput("values.bplist --to xml, against PropertyListSerialization", [bench, "--foundation-plist", realWorld, "xml", out], expected: realWorldXMLData)
        }
        if let plistlibData, let tree = try? BinaryPropertyListReader().read(plistlibData), let expected = try? XMLPropertyListWriter().write(tree) {
            compareOutput("values.plistlib.bplist --to xml, against XMLPropertyListWriter", [cli, "convert", plistlibValues, "--to", "xml", "-o", out], expected: expected)
            compareOutput("values.plistlib.bplist --to binary, against BinaryPropertyListLayoutWriter",
                          [cli, "convert", plistlibValues, "--to", "binary", "-o", out],
                          expected: BinaryPropertyListLayoutWriter(original: plistlibData).write(tree))
        }
        unlink(out)

        print("Whole process, best of \(n) rounds, each running every command once (time; the largest peak of the runs), release build, on the same files in one run")
        print("")
        print("Archive: \(settings.archiveRecords) NSDictionary records in plistlib's layout, \(objectCount) objects, \(mb(archiveData.count))")
        print("")
        print("| command (whole process) | time | peak memory | peak ÷ input | output | output ÷ input | compared | goal |")
        print("|---|---:|---:|---:|---:|---:|---|---|")
        // The shared layout's rows against its own size, which is smaller than the Apple layout's.
        for row in archiveRows { print(line(row, input: row.command.contains("NS.keys shared") ? (sharedData?.count ?? archiveData.count) : archiveData.count)) }
        print("")
        print("Property lists: \(settings.dictionaryCount) records, \(mb(binaryData.count)) binary, \(mb(xmlData.count)) XML; "
              + "outputs in \(directory) (archivist syncs each file it writes to its disk) and, where marked, in memory")
        print("")
        print("| command (whole process) | time | peak memory | peak ÷ input | output | output ÷ input | compared | goal |")
        print("|---|---:|---:|---:|---:|---:|---|---|")
        for row in plistRows { print(line(row, input: row.command.contains("big.xml") ? xmlData.count : binaryData.count)) }
        print("")
        print("Real-world values: \(settings.realWorldRecords) records (random full-precision reals, dates with fractions, "
              + "16-byte data, titles in five scripts), \(mb(realWorldData.count)) binary, \(mb(realWorldXMLData.count)) XML; the same rounds")
        print("")
        print("| command (whole process) | time | peak memory | peak ÷ input | output | output ÷ input | compared | goal |")
        print("|---|---:|---:|---:|---:|---:|---|---|")
        for row in valuesRows { print(line(row, input: realWorldData.count)) }
        print("")
        if let plistlibData {
            print("The same records in CPython plistlib's layout (keys and equal values stored once, its object order), \(mb(plistlibData.count)); the same rounds")
            print("")
            print("| command (whole process) | time | peak memory | peak ÷ input | output | output ÷ input | compared | goal |")
            print("|---|---:|---:|---:|---:|---:|---|---|")
            for row in plistlibRows { print(line(row, input: plistlibData.count)) }
            print("")
        }
        print("Outputs, checked after the rounds:")
        print("")
        for line in checks { print("- " + line) }
    }

    func line(_ row: Row, input: Int) -> String {
        guard let run = row.run else { return "| \(row.command) | – | – | – | – | – | \(row.comparisons.joined(separator: "; ")) | \(row.goal) |" }
        let output = run.outputBytes > 0 ? mb(run.outputBytes) : "–"
        let outputRatio = run.outputBytes > 0 ? String(format: "%.2f", Double(run.outputBytes) / Double(input)) : "–"
        return "| \(row.command) | \(String(format: "%.3f s", run.seconds)) | \(mb(run.peakBytes)) | "
            + "\(String(format: "%.2f", Double(run.peakBytes) / Double(input))) | \(output) | \(outputRatio) | "
            + "\(row.comparisons.joined(separator: "; ")) | \(row.goal) |"
    }

    /// A memory-backed folder for output files (`/dev/shm` where `/proc/mounts` shows it as
    /// tmpfs and it can be written), or nil.
    static var memoryDirectory: String? {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return nil }
        let isTmpfs = mounts.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 2 && fields[1] == "/dev/shm" && fields[2] == "tmpfs"
        }
        return isTmpfs && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : nil
    }

    func ratio(_ peer: Double, _ ours: Double) -> String { String(format: "%.1f×", peer / ours) }

    func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

    /// `archivist` beside this executable, or the one given with `--cli`.
    func archivistPath() -> String? {
        if let given = settings.cliPath { return given }
        let bench = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let candidate = ((bench as NSString).deletingLastPathComponent as NSString).appendingPathComponent("archivist")
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    func which(_ tool: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
