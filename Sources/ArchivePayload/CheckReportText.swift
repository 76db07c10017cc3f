import KeyedArchive
import PropertyList

/// `check`'s report for people.
extension ArchiveCheck {
    /// The report as `archivist check` prints it: accepted, or each refused object with its path
    /// and the `--allow` flags and Swift override that would accept it.
    ///
    /// - Parameters:
    ///   - file: the archive's name, as messages show it.
    ///   - argument: the archive as a command names it, in the commands suggested for a
    ///     typedstream (`-` for standard input).
    ///   - usesColors: whether to color verdicts and warnings (ANSI; for a terminal).
    public func text(file: String, argument: String, usesColors: Bool) -> String {
        let colors = ReportPalette(enabled: usesColors)
        let count = objectCount
        var out = ""
        let classes = classCounts.map(\.name).joined(separator: ", ")
        if let nib = report.nibArchive {
            out += "\(file): \(colors.bad("refused")): a compiled nib (NIBArchive, coder version \(nib.coderVersion)), which is no secure-coding blob: "
            out += "UINib and NSNib instantiate every class it names, and no secure unarchiver reads one\n"
            let total = nib.classes.reduce(0) { $0 + $1.count }
            out += "  \(total) object\(total == 1 ? "" : "s") of \(nib.classes.count) class\(nib.classes.count == 1 ? "" : "es"):\n"
            for c in nib.classes {
                out += "    \(c.name) \(c.count)\n"
            }
            if !report.violations.isEmpty {
                let flags = report.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " ")
                out += "  as a keyed archive its objects would need: \(flags)\n"
            }
            let argument = Self.shellWord(argument)
            out += "  to read it: archivist inspect \(argument) (the object graph), archivist unarchive \(argument) --to json --no-check --break-cycles\n"
            return out
        }
        if let stream = report.typedStream {
            out += "\(file): \(colors.bad("refused")): an NSArchiver typedstream (\(stream.byteOrder)-endian, system version \(stream.systemVersion)), "
            out += "which NSSecureUnarchiveFromDataTransformer and every secure unarchiver refuse whatever classes it holds\n"
            out += "  \(count) object\(count == 1 ? "" : "s"): \(classes)\n"
            if !report.violations.isEmpty {
                let flags = report.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " ")
                out += "  as a keyed archive it would still need: \(flags)\n"
            }
            let argument = Self.shellWord(argument)
            out += "  the way forward: archivist rewrite \(argument) --to keyed -o NEW (a keyed archive of the same objects, for NSKeyedUnarchiver),\n"
            out += "    archivist unarchive \(argument) --to json (its payload), or in a Core Data store: archivist migrate STORE --attribute Entity.attribute --to archive|json\n"
            for w in report.warnings where w.kind != .untrustedHierarchy && w.kind != .implicitPlistType {
                out += "  \(colors.warn("warning")): \(w.message)\n"
            }
            return out
        }
        if report.isAccepted {
            out += "\(file): \(colors.good("accepted")) (\(count) object\(count == 1 ? "" : "s"): \(classes))\n"
        } else {
            out += "\(file): \(colors.bad("refused")), \(report.violations.count) object\(report.violations.count == 1 ? "" : "s") of classes not allowed\n"
            for v in report.violations {
                let written = v.className == v.readableClassName ? "" : " (written \(v.className))"
                out += "  \(colors.bad(v.readableClassName))\(written) #\(v.uid) at \(v.path): \(v.reason)\n"
            }
            let flags = report.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " ")
            out += "  to accept it: \(flags)\n"
            out += "  or in the app's transformer:\n"
            for line in report.swiftSnippet.split(separator: "\n", omittingEmptySubsequences: false) {
                out += "    \(line)\n"
            }
        }
        for w in report.warnings where w.kind != .untrustedHierarchy {
            out += "  \(colors.warn("warning")): \(w.message)\n"
        }
        return out
    }

    /// A path as a POSIX shell reads it back: single-quoted when it holds anything but safe characters.
    static func shellWord(_ word: String) -> String {
        word.allSatisfy { $0.isLetter || $0.isNumber || "_-./,:=@%+".contains($0) } ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
