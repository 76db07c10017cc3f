import Foundation
import NIBArchive
import PropertyList

extension KeyedArchive {
    /// A compiled nib as the keyed archive of the same objects: the nib's own keys, with the
    /// values its coder writes without a key gathered where NSKeyedArchiver keeps them (a
    /// collection's `NS.objects` and `NS.keys`, or `$0`, `$1`… elsewhere), and strings, numbers
    /// and data inline; see `NIBArchiveKeyedArchiver`.
    ///
    /// `archiver` is "NIBArchive" and `version` the nib's coder version; `nibArchive` keeps the
    /// nib's tables.
    public init(nibArchive nib: NIBArchive, options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) {
        var archiver = NIBArchiveKeyedArchiver(nib: nib)
        try self.init(plist: archiver.archive(), options: options)
        self.archiver = "NIBArchive"
        self.version = Int(nib.header.coderVersion)
        self.nibArchive = nib
    }
}
