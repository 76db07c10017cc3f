import Foundation

extension PropertyListLiteralWriter {
    /// `Info.m` → `Info.h`: the header an Objective-C literal file written to `output` imports
    /// (`importedHeader`), as `plutil -convert objc` names it.
    public static func headerName(for output: String) -> String {
        let name = URL(fileURLWithPath: output).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + ".h" }
        return name[..<dot] + ".h"
    }
}
