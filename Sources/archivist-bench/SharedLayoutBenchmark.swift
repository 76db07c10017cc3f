import Foundation

/// `check`, `unarchive --to json` and `inspect --format json` of the process benchmark's
/// archive in NSKeyedArchiver's layout and in the layouts of writers that share identical
/// collections (`SharedLayoutInput`), as whole processes in the same rounds, with this build
/// and, given `--baseline-cli`, another (`archivist-bench --only shared`). Each layout's time
/// is compared with the Apple layout's on the same build (goal: at most 1.25×, peak at most 3×
/// the input), and every output with the Apple layout's (byte for byte, the path aside). A last
/// layout holds other records: the same in NSKeyedArchiver's layout with an NSNull, an empty
/// NSArray and a nil value in each (`RecordArchiveInput.make(records:emptiesAndNulls:)`),
/// whose outputs are compared between the builds.
struct SharedLayoutBenchmark: BenchmarkGroup {
    var settings: BenchmarkSettings

    func run() {
        let process = ProcessBenchmark(settings: settings)
        guard let cli = process.archivistPath() else {
            log("shared benchmark: no archivist executable beside archivist-bench; give --cli PATH")
            return
        }
        let directory = makeInputsDirectory("shared")
        defer { removeInputsDirectory(directory) }

        log("shared: generating \(settings.archiveRecords) records…")
        let (apple, objectCount) = RecordArchiveInput.make(records: settings.archiveRecords)
        // `sameRecords`: the Apple layout's records, whose outputs must be the Apple layout's.
        var layouts: [(name: String, path: String, bytes: Int, sameRecords: Bool)] = []
        let applePath = directory + "/apple.archive"
        FileManager.default.createFile(atPath: applePath, contents: apple)
        layouts.append(("NSKeyedArchiver's layout", applePath, apple.count, true))
        if let shared = SharedLayoutInput.shared(apple) {
            let path = directory + "/shared.archive"
            FileManager.default.createFile(atPath: path, contents: shared)
            layouts.append(("NS.keys shared (SharedLayoutWriter)", path, shared.count, true))
        }
        if let python = process.which("python3") {
            log("shared: writing the plistlib layout with python3…")
            let path = directory + "/plistlib.archive"
            if SharedLayoutInput.plistlib(applePath, to: path, python: python) {
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                layouts.append(("NS.keys shared (CPython plistlib)", path, size, true))
            } else {
                log("shared: python3's plistlib failed; its layout is left out")
            }
        }
        let (empties, emptiesObjects) = RecordArchiveInput.make(records: settings.archiveRecords, emptiesAndNulls: true)
        let emptiesPath = directory + "/empties.archive"
        FileManager.default.createFile(atPath: emptiesPath, contents: empties)
        layouts.append(("NSKeyedArchiver's layout, with NSNull, an empty NSArray and nil in each record (\(emptiesObjects) objects)",
                        emptiesPath, empties.count, false))
        var builds: [(name: String, path: String)] = [("this build", cli)]
        if let baseline = settings.baselineCLIPath { builds.insert(("baseline", baseline), at: 0) }

        // Each verb's arguments for a build, a file and an output path; `toStdout` when the
        // output is standard output (as the process benchmark runs them).
        let verbs: [(name: String, arguments: (String, String, String) -> [String], toStdout: Bool)] = [
            ("check", { cli, file, _ in [cli, "check", file] }, true),
            ("unarchive --to json", { cli, file, out in [cli, "unarchive", file, "--to", "json", "-o", out] }, false),
            ("inspect --format json", { cli, file, _ in [cli, "inspect", file, "--format", "json"] }, true),
        ]
        let rounds = ProcessRounds()
        var commands: [[[ProcessRounds.Command]]] = []   // [verb][build][layout]
        for verb in verbs {
            var byBuild: [[ProcessRounds.Command]] = []
            for (b, build) in builds.enumerated() {
                byBuild.append(layouts.enumerated().map { (l, layout) in
                    let out = directory + "/out.\(b).\(l)"
                    return rounds.add(verb.arguments(build.path, layout.path, out),
                                      stdoutPath: verb.toStdout ? out : "/dev/null", outputPath: verb.toStdout ? nil : out)
                })
            }
            commands.append(byBuild)
        }
        rounds.run(rounds: settings.repetitions, log: log)

        print("Shared collections: whole process, median (best) of \(settings.repetitions) rounds, each running every command once; "
              + "peak is the largest of the runs; release builds")
        print("")
        print("Archive: \(settings.archiveRecords) NSDictionary records, \(objectCount) objects; layouts: "
              + layouts.map { "\($0.name) \(String(format: "%.1f MB", Double($0.bytes) / 1e6))" }.joined(separator: ", "))
        print("")
        print("| command | layout | build | median | best | peak memory | peak ÷ input | median ÷ Apple layout's |")
        print("|---|---|---|---:|---:|---:|---:|---:|")
        for (v, verb) in verbs.enumerated() {
            for (b, build) in builds.enumerated() {
                let appleMedian = commands[v][b][0].median
                for (l, layout) in layouts.enumerated() {
                    let command = commands[v][b][l]
                    guard let median = command.median, let best = command.best else {
                        print("| `\(verb.name)` | \(layout.name) | \(build.name) | failed | | | | |")
                        continue
                    }
                    let relative = appleMedian.map { String(format: "%.2f×", median / $0) } ?? "–"
                    print("| `\(verb.name)` | \(layout.name) | \(build.name) | \(String(format: "%.3f s", median)) | "
                          + "\(String(format: "%.3f s", best.seconds)) | \(String(format: "%.0f MB", Double(best.peakBytes) / 1e6)) | "
                          + "\(String(format: "%.2f", Double(best.peakBytes) / Double(layout.bytes))) | \(relative) |")
                }
            }
        }
        // The outputs, outside the timing: every layout's, with every build, against the Apple
        // layout's with this build (the file's path replaced, since check names it); other
        // records' against their own with this build.
        print("")
        print("Outputs, against the Apple layout's with this build (other records: against this build's):")
        print("")
        for verb in verbs {
            func output(_ cli: String, _ layout: String) -> Data? {
                let out = directory + "/out"
                defer { unlink(out) }
                guard ProcessRun.run(verb.arguments(cli, layout, out), stdoutPath: verb.toStdout ? out : "/dev/null",
                                     outputPath: verb.toStdout ? nil : out)?.status == 0,
                      let bytes = FileManager.default.contents(atPath: out) else { return nil }
                return Data(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: layout, with: "FILE").utf8)
            }
            let appleReference = output(cli, layouts[0].path)
            for build in builds {
                for layout in layouts where !(build.path == cli && (layout.path == layouts[0].path || !layout.sameRecords)) {
                    let reference = layout.sameRecords ? appleReference : output(cli, layout.path)
                    let same = reference != nil && output(build.path, layout.path) == reference
                    print("- `\(verb.name)`, \(layout.name), \(build.name): " + (same ? "identical" : "DIFFERENT"))
                }
            }
        }
    }
}
